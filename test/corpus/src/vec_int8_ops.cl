// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// int8 and uint16 vectors: element-wise arithmetic, shifts, comparisons producing
// -1/0 masks, vector-by-scalar ops and building vectors from swizzled halves.

__kernel void vec_int8_ops(__global const int8 *a, __global const int8 *b,
                           __global int8 *sum, __global int8 *mask,
                           __global uint16 *packed)
{
    size_t i = get_global_id(0);
    int8 x = a[i];
    int8 y = b[i];
    int8 s = as_int8(as_uint8(x) + as_uint8(y) * 3u - as_uint8(x >> 2)); /* wraps */
    s.s0 ^= y.s7;
    sum[i] = s;
    mask[i] = (x > y) & (int8)(1, 2, 4, 8, 16, 32, 64, 128);
    uint8 ux = as_uint8(x);
    uint16 p = (uint16)(ux.hi, ux.lo, as_uint8(y).s76543210);
    p.sf = (uint)i;
    packed[i] = p << 1u;
}
