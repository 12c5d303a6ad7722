// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Q15 fixed-point DSP on short/short8: saturating add/sub (add_sat, sub_sat),
// rounding multiply via int widening, mul_hi on short, upsample and a 4-tap FIR.

__constant short taps[4] = { 8192, -4096, 16384, 2048 };

static short q15_mul(short a, short b)
{
    int p = (int)a * (int)b + (1 << 14);
    return convert_short_sat(p >> 15);
}

__kernel void fixed_point_q15(__global const short *x, __global short *y,
                              __global short8 *v, __global int *wide, int n)
{
    int i = get_global_id(0);
    int acc = 0;
    for (int t = 0; t < 4; ++t) {
        int k = i - t;
        short s = (k >= 0 && k < n) ? x[k] : (short)0;
        acc += q15_mul(s, taps[t]);
    }
    y[i] = convert_short_sat(acc);
    short a = x[i % n], b = x[(i + 1) % n];
    short8 p = (short8)(a, b, add_sat(a, b), sub_sat(a, b),
                        mul_hi(a, b), q15_mul(a, b), hadd(a, b), abs_diff(a, b));
    v[i] = add_sat(p, p.s76543210);
    wide[i] = upsample(a, (ushort)b);
}
