// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// 64-bit integers (long, ulong, ulong2): multiplication, unsigned/signed division
// and remainder, shifts by more than 32, mul_hi, 64-bit hashing (splitmix64).

static ulong splitmix64(ulong z)
{
    z += 0x9E3779B97F4A7C15UL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
    return z ^ (z >> 31);
}

__kernel void int64_arith(__global const long *a, __global const ulong *b,
                          __global long *sres, __global ulong *ures, __global ulong2 *v)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i] | 1UL;
    sres[3 * i + 0] = x / 7 - x % 7;
    sres[3 * i + 1] = ((long)((ulong)x << 37)) >> 40;
    sres[3 * i + 2] = mul_hi(x, (long)0x123456789ABCDEFL);
    ures[3 * i + 0] = splitmix64(y + i);
    ures[3 * i + 1] = y / ((y >> 40) | 1UL) + y % 1000003UL;
    ures[3 * i + 2] = mul_hi(y, 0xFEDCBA9876543210UL) ^ rotate(y, (ulong)i);
    ulong2 p = (ulong2)(y, (ulong)x);
    v[i] = p * (ulong2)(3, 5) + (p >> (ulong2)(63, 1));
}
