// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// cl_khr_fp16 half arithmetic: scalar and half4 add/mul/sub/compare, conversion
// from and to float and int. Inputs are small integers/halves so results are exact.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void half_arith(__global const half *a, __global const half4 *b,
                         __global half *out, __global half4 *out4, __global int *flags)
{
    size_t i = get_global_id(0);
    half x = a[i];
    half y = x * (half)2.0 - (half)0.5;
    out[i] = (y > x) ? y : x + (half)1.0;
    half4 v = b[i];
    half4 w = v * v + (half4)(x);
    out4[i] = w.wzyx - v;
    float f = (float)w.x + (float)y;
    flags[i] = (int)f + convert_int(v.y) + (isequal(v.z, v.w) ? 1000 : 0);
}
