// corpus: producers=llc22,spirv15 std=CL2.0 class=builtins
// builtin_names.cl's kernels with each built-in defined over the __spirv_ form of its
// instruction (operands from SPEC-NOTES A.4 and B.6): llc-22 makes the instructions, the
// translator (which does not know them) imported __spirv_ calls. Runs of the two files and
// producers must agree byte for byte (test/cli/builtins.cmake).

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadINTEL(int elem_size, int block_w, int block_h, int count, __global void *base, int width, int height, int pitch, int2 coord, __private void *dst);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int elem_size, int block_w, int block_h, int count, __global void *base, int width, int height, int pitch, int2 coord, __private void *dst);
void OVL __spirv_Subgroup2DBlockLoadTransposeINTEL(int elem_size, int block_w, int block_h, int count, __global void *base, int width, int height, int pitch, int2 coord, __private void *dst);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int elem_size, int block_w, int block_h, int count, __private void *src, __global void *base, int width, int height, int pitch, int2 coord);
void OVL __spirv_Subgroup2DBlockPrefetchINTEL(int elem_size, int block_w, int block_h, int count, __global void *base, int width, int height, int pitch, int2 coord);

#define LOAD(op, name, T, e, w, hh, c)                                                          \
    static void name(__global void *b, int wb, int hb, int p, int2 xy, __private T *d) {       \
        op(e, w, hh, c, b, wb, hb, p, xy, d);                                                   \
    }
LOAD(__spirv_Subgroup2DBlockLoadINTEL, intel_sub_group_2d_block_read_16b_8r16x1c, ushort, 2, 16, 8, 1)
LOAD(__spirv_Subgroup2DBlockLoadINTEL, intel_sub_group_2d_block_read_8b_8r16x4c, uchar, 1, 16, 8, 4)
LOAD(__spirv_Subgroup2DBlockLoadINTEL, intel_sub_group_2d_block_read_32b_8r8x1c, uint, 4, 8, 8, 1)
LOAD(__spirv_Subgroup2DBlockLoadTransformINTEL, intel_sub_group_2d_block_read_transform_16b_16r16x1c, uint, 2, 16, 16, 1)
LOAD(__spirv_Subgroup2DBlockLoadTransformINTEL, intel_sub_group_2d_block_read_transform_8b_32r16x1c, uint, 1, 16, 32, 1)
LOAD(__spirv_Subgroup2DBlockLoadTransposeINTEL, intel_sub_group_2d_block_read_transpose_32b_16r8x1c, uint, 4, 8, 16, 1)
#define STORE(name, T, e, w, hh)                                                                \
    static void name(__global void *b, int wb, int hb, int p, int2 xy, __private T *s) {       \
        __spirv_Subgroup2DBlockStoreINTEL(e, w, hh, 1, s, b, wb, hb, p, xy);                    \
    }
STORE(intel_sub_group_2d_block_write_16b_8r16x1c, ushort, 2, 16, 8)
STORE(intel_sub_group_2d_block_write_8b_4r16x1c, uchar, 1, 16, 4)
STORE(intel_sub_group_2d_block_write_32b_2r16x1c, uint, 4, 16, 2)
static void intel_sub_group_2d_block_prefetch_16b_8r16x1c(__global void *b, int wb, int hb, int p, int2 xy) {
    __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, b, wb, hb, p, xy);
}

int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, int2 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
short2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, short2 c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float a, float8 b, float2 c, int ops);

#define MAD(name, R, A, B, k, ops, S)                                                            \
    static R OVL name(A a, B b, R c) {                                                          \
        return __spirv_SubgroupMatrixMultiplyAccumulateINTEL(k, as_##S(a), as_int8(b), c, ops);  \
    }
MAD(intel_sub_group_i8_i8_matrix_mad_k32, int8, short8, int8, 32, 0x33, short8)
MAD(intel_sub_group_u8_i8_matrix_mad_k32, int8, ushort8, int8, 32, 0x32, short8)
MAD(intel_sub_group_i8_u8_matrix_mad_k32, int2, short2, uint8, 32, 0x31, short2)
MAD(intel_sub_group_u8_u8_matrix_mad_k32, int2, ushort2, uint8, 32, 0x30, short2)
MAD(intel_sub_group_i4_i4_matrix_mad_k64, int8, short8, int8, 64, 0xC3, short8)
MAD(intel_sub_group_u4_u4_matrix_mad_k64, int8, ushort8, uint8, 64, 0xC0, short8)
MAD(intel_sub_group_f16_f16_matrix_mad_k16, float8, short8, int8, 16, 0xC00, short8)
MAD(intel_sub_group_bf16_bf16_matrix_mad_k16, float8, short8, int8, 16, 0x3000, short8)
MAD(intel_sub_group_bf16_bf16_matrix_mad_k16, short2, short2, int8, 16, 0x300C, short2)
static float2 OVL intel_sub_group_tf32_tf32_matrix_mad_k8(float a, float8 b, float2 c) {
    return __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a, b, c, 0x300);
}

#include "builtin_forms_body.h"
