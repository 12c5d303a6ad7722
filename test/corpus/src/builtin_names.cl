// corpus: producers=llc22,spirv15 std=CL2.0 class=builtins
// The cl_intel_subgroup_2d_block_io and matrix built-ins called by their OpenCL C names, with
// the private pointer types the extension gives them (8-bit 16 wide uchar, 16-bit ushort,
// 32-bit and transform/transpose uint); declared here as IGC's header declares them, since
// neither clang's header does. Producers keep them as imported calls (builtin_forms_body.h).

#define OVL __attribute__((overloadable))
void OVL intel_sub_group_2d_block_read_16b_8r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private ushort *dst);
void OVL intel_sub_group_2d_block_read_8b_8r16x4c(__global void *base, int width, int height, int pitch, int2 coord, __private uchar *dst);
void OVL intel_sub_group_2d_block_read_32b_8r8x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uint *dst);
void OVL intel_sub_group_2d_block_read_transform_16b_16r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uint *dst);
void OVL intel_sub_group_2d_block_read_transform_8b_32r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uint *dst);
void OVL intel_sub_group_2d_block_read_transpose_32b_16r8x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uint *dst);
void OVL intel_sub_group_2d_block_write_16b_8r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private ushort *src);
void OVL intel_sub_group_2d_block_write_8b_4r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uchar *src);
void OVL intel_sub_group_2d_block_write_32b_2r16x1c(__global void *base, int width, int height, int pitch, int2 coord, __private uint *src);
// Declared without overloadable: its import keeps the plain name.
void intel_sub_group_2d_block_prefetch_16b_8r16x1c(__global void *base, int width, int height, int pitch, int2 coord);

int8 OVL intel_sub_group_i8_i8_matrix_mad_k32(short8 a, int8 b, int8 acc);
int8 OVL intel_sub_group_u8_i8_matrix_mad_k32(ushort8 a, int8 b, int8 acc);
int2 OVL intel_sub_group_i8_u8_matrix_mad_k32(short2 a, uint8 b, int2 acc);
int2 OVL intel_sub_group_u8_u8_matrix_mad_k32(ushort2 a, uint8 b, int2 acc);
int8 OVL intel_sub_group_i4_i4_matrix_mad_k64(short8 a, int8 b, int8 acc);
int8 OVL intel_sub_group_u4_u4_matrix_mad_k64(ushort8 a, uint8 b, int8 acc);
float8 OVL intel_sub_group_f16_f16_matrix_mad_k16(short8 a, int8 b, float8 acc);
float8 OVL intel_sub_group_bf16_bf16_matrix_mad_k16(short8 a, int8 b, float8 acc);
short2 OVL intel_sub_group_bf16_bf16_matrix_mad_k16(short2 a, int8 b, short2 acc);
float2 OVL intel_sub_group_tf32_tf32_matrix_mad_k8(float a, float8 b, float2 acc);

#include "builtin_forms_body.h"
