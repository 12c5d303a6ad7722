// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Saturating conversions: convert_uchar_sat, convert_char4_sat, convert_short_sat,
// convert_ushort8_sat, convert_int_sat from float and long, with rounding-mode variants.

__kernel void convert_sat(__global const int *in, __global const float *fin,
                          __global const long *lin,
                          __global uchar *u8, __global char4 *c4, __global short *s16,
                          __global ushort8 *us8, __global int *i32, __global uint *u32)
{
    size_t i = get_global_id(0);
    int v = in[i];
    float f = fin[i];
    long l = lin[i];
    u8[i] = convert_uchar_sat(v);
    c4[i] = convert_char4_sat((int4)(v, -v, v * 3, v >> 2));
    s16[i] = convert_short_sat_rte(f);
    us8[i] = convert_ushort8_sat((int8)(v, -v, v << 8, v >> 8, 0, 65535, 65536, -1));
    i32[2 * i] = convert_int_sat(l);
    i32[2 * i + 1] = convert_int_sat_rtn(f);
    u32[i] = convert_uint_sat(f) ^ convert_uint_sat(l);
}
