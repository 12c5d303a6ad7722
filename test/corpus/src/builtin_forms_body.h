// The kernels of builtin_names.cl and builtin_spirv_forms.cl: the same computation, written once
// with the cl_intel_subgroup_2d_block_io and matrix built-ins as a user calls them. One file
// declares the built-ins (producers leave them as imported calls), the other defines them over
// the __spirv_ forms (llc-22 turns those into the instructions), so runs of the two compare.

// Each work-item's private results go to out[(global id) * 64 + j].
// Unrolled: llvm-spirv-15 orders the blocks of these loops at -O2 so that a block comes before
// its dominator, which SPIRV-Tools rejects.
#define KEEP(array, n) \
  _Pragma("unroll") for (int j_ = 0; j_ < (n); ++j_) out[slot + k_++] = (uint)(array)[j_];

__attribute__((intel_reqd_sub_group_size(16))) __kernel void builtin_blk2d(
    __global uchar *src, int wbytes, int h, int pitch, __global uchar *dst, __global uint *out) {
  const size_t slot = get_global_id(0) * 64;
  int k_ = 0;
  const int y = (int)get_group_id(0) * 8;
#if __clang_major__ < 16
  // For clang-15 + llvm-spirv-15 one private array holds every block: at -O2 the translator
  // places the OpBitcast of one OpVariable (for its lifetime marker) before the next
  // OpVariable, which SPIR-V forbids.
  uint priv[48];
  __private ushort *r16 = (__private ushort *)priv;
  __private uchar *r8x4 = (__private uchar *)(priv + 4);
  __private uint *r32 = priv + 12, *t16 = priv + 16, *t8 = priv + 24, *tp = priv + 32;
  __private uchar *w8 = (__private uchar *)(priv + 40);
  __private uint *w32 = priv + 41;
#else
  // Arrays of the built-ins' own element types.
  ushort r16[8];
  uchar r8x4[32], w8[4];
  uint r32[4], t16[8], t8[8], tp[8], w32[2];
#endif
  intel_sub_group_2d_block_read_16b_8r16x1c(src, wbytes, h, pitch, (int2)(4, y), r16);
  KEEP(r16, 8)
  intel_sub_group_2d_block_read_8b_8r16x4c(src, wbytes, h, pitch, (int2)(0, y), r8x4);
  KEEP(r8x4, 32)
  intel_sub_group_2d_block_read_32b_8r8x1c(src, wbytes, h, pitch, (int2)(2, y + 1), r32);
  KEEP(r32, 4)
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(src, wbytes, h, pitch, (int2)(2, y), t16);
  KEEP(t16, 8)
  intel_sub_group_2d_block_read_transform_8b_32r16x1c(src, wbytes, h, pitch, (int2)(8, y), t8);
  KEEP(t8, 4)
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(src, wbytes, h, pitch, (int2)(1, y), tp);
  KEEP(tp, 4)
  intel_sub_group_2d_block_prefetch_16b_8r16x1c(src, wbytes, h, pitch, (int2)(0, y));
  // Stores: the 16-bit rows go back shifted, the 8-bit and 32-bit ones below them.
  intel_sub_group_2d_block_write_16b_8r16x1c(dst, wbytes, h, pitch, (int2)(16, y), r16);
  w8[0] = r8x4[0];
  w8[1] = r8x4[5];
  w8[2] = r8x4[10];
  w8[3] = r8x4[31];
  intel_sub_group_2d_block_write_8b_4r16x1c(dst, wbytes, h, pitch, (int2)(0, y + 1), w8);
  w32[0] = r32[0] + 1;
  w32[1] = r32[3] ^ 0x5a5a5a5au;
  intel_sub_group_2d_block_write_32b_2r16x1c(dst, wbytes, h, pitch, (int2)(0, y + 5), w32);
}

// Matrix built-ins at sub-group size 16: int8 (each signedness), int4, fp16, bf16 with float
// and bf16 accumulators, tf32; M = 8 and M = 2.
__attribute__((intel_reqd_sub_group_size(16))) __kernel void builtin_mma(__global const short *A,
                                                                         __global const int *B,
                                                                         __global const float *F,
                                                                         __global uint *out) {
  const size_t g = get_global_id(0);
  const size_t slot = g * 64;
  int k_ = 0;
  short8 a = vload8(g, A);
  int8 b = vload8(g, B);
  int8 ci = vload8(g, B + 1024);
  float8 cf = vload8(g, F);
  int8 i1 = intel_sub_group_i8_i8_matrix_mad_k32(a, b, ci);
  int8 i2 = intel_sub_group_u8_i8_matrix_mad_k32(as_ushort8(a), b, i1);
  int2 i3 = intel_sub_group_i8_u8_matrix_mad_k32(a.s01, as_uint8(b), i2.s23);
  int2 i4 = intel_sub_group_u8_u8_matrix_mad_k32(as_ushort2(a.s45), as_uint8(b), i3);
  int8 i5 = intel_sub_group_i4_i4_matrix_mad_k64(a, b, i2);
  int8 i6 = intel_sub_group_u4_u4_matrix_mad_k64(as_ushort8(a), as_uint8(b), i5);
  // fp16/bf16 data is passed in signed integer types (SPEC-NOTES B.6); keep the values finite.
  short8 h = (a & (short)0x3bff);
  int8 hb = b & 0x3bff3bff;
  float8 f1 = intel_sub_group_f16_f16_matrix_mad_k16(h, hb, cf);
  float8 f2 = intel_sub_group_bf16_bf16_matrix_mad_k16(h, hb, f1);
  short2 s1 = intel_sub_group_bf16_bf16_matrix_mad_k16(h.s01, hb, (short2)(0x3f80, 0x3f80));
  float2 t1 = intel_sub_group_tf32_tf32_matrix_mad_k8(cf.s0, cf, f2.s45);
  KEEP(i6, 8)
  KEEP(i4, 2)
  KEEP(f2, 8)
  KEEP(s1, 2)
  out[slot + k_++] = as_uint(t1.s0);
  out[slot + k_++] = as_uint(t1.s1);
}
