// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Integer built-ins: popcount, clz, ctz, rotate, mul_hi, mad_hi, hadd, rhadd,
// abs, abs_diff, add_sat, sub_sat, mad24, mul24, clamp, min/max, select, bitselect, upsample.

__kernel void int_builtins(__global const int *a, __global const int *b,
                           __global uint *u, __global int *s, __global uint4 *v)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    u[8 * i + 0] = popcount(ux) + clz(uy);
    u[8 * i + 1] = ctz(ux | 0x80000000u);
    u[8 * i + 2] = rotate(ux, uy & 31u);
    u[8 * i + 3] = mul_hi(ux, uy) + mad_hi(ux, 3u, uy);
    u[8 * i + 4] = hadd(ux, uy) ^ rhadd(ux, ~uy);
    u[8 * i + 5] = abs(x) + abs_diff(x, y);
    u[8 * i + 6] = bitselect(ux, uy, 0x0F0F0F0Fu);
    u[8 * i + 7] = (uint)upsample((ushort)ux, (ushort)uy);
    s[4 * i + 0] = (int)((uint)add_sat(x, y) - (uint)(sub_sat(y, x) / 2));
    s[4 * i + 1] = mad24(x & 0x7FFF, y & 0x7FFF, 11) + mul24(x >> 20, 7);
    s[4 * i + 2] = (int)((uint)clamp(x, -1000, 1000) + (uint)max(y, -5) + (uint)min(x, y));
    s[4 * i + 3] = select(x, y, x < y);
    int4 xv = (int4)(x, y, x ^ y, x + 1);
    int4 yv = (int4)(y, x, 17, -x);
    v[i] = select(as_uint4(xv), as_uint4(yv), xv > yv) + popcount(as_uint4(xv));
}
