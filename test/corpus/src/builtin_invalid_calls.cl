// corpus: producers=llc22,spirv15 std=CL2.0 class=builtins-invalid
// Built-in calls xmx-val must reject, one kernel each (test/cli/builtins.cmake): a 2D block
// read 7 elements wide, one 64 rows high, a bf16 matrix built-in with M = 16, and two
// built-ins declared with signatures they do not have (a 2D block read without its
// destination, a matrix built-in with a float b).

#define OVL __attribute__((overloadable))
void OVL intel_sub_group_2d_block_read_16b_8r7x1c(__global void *base, int width, int height, int pitch, int2 coord, __private ushort *dst);
void OVL intel_sub_group_2d_block_read_16b_64r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private ushort *dst);
float16 OVL intel_sub_group_bf16_bf16_matrix_mad_k16(short16 a, int8 b, float16 acc);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(__global void *base, int width, int height, int pitch, int2 coord);
float8 OVL intel_sub_group_f16_f16_matrix_mad_k16(short8 a, float8 b, float8 acc);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bad_block_width(__global ushort *src, __global ushort *out)
{
    ushort d[8];
    intel_sub_group_2d_block_read_16b_8r7x1c(src, 64, 64, 64, (int2)(0, 0), d);
    out[get_global_id(0)] = d[0] + d[7];
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bad_block_height(__global ushort *src, __global ushort *out)
{
    ushort d[64];
    intel_sub_group_2d_block_read_16b_64r16x1c(src, 64, 64, 64, (int2)(0, 0), d);
    out[get_global_id(0)] = d[0] + d[63];
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bad_matrix_m(__global const short *A, __global const int *B, __global float *out)
{
    const size_t g = get_global_id(0);
    float16 r = intel_sub_group_bf16_bf16_matrix_mad_k16(vload16(g, A), vload8(g, B), (float16)(0));
    vstore16(r, g, out);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bad_block_signature(__global uint *src)
{
    intel_sub_group_2d_block_read_32b_8r16x1c(src, 64, 64, 64, (int2)(0, 0));
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bad_matrix_signature(__global const short *A, __global const float *B, __global float *out)
{
    const size_t g = get_global_id(0);
    vstore8(intel_sub_group_f16_f16_matrix_mad_k16(vload8(g, A), vload8(g, B), (float8)(0)), g, out);
}
