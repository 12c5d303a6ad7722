// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// cl_khr_fp64 double arithmetic: double and double2 add/mul/div, comparisons,
// conversions to/from long and float, floor/fabs/fmin on doubles. No contraction.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void double_arith(__global const double *a, __global const double2 *b,
                           __global double *out, __global long *ints, __global float *narrow)
{
    size_t i = get_global_id(0);
    double x = a[i];
    double2 v = b[i];
    double q = x / (fabs(v.x) + 1.0);
    double p = x * v.y - v.x;
    out[2 * i] = fmin(q, p);
    out[2 * i + 1] = floor(q * 1024.0) / 1024.0;
    ints[i] = (long)(x * 1.0e6) + convert_long_rtz(v.y);
    narrow[i] = (float)(v.x + v.y);
}
