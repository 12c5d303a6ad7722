// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Bit reinterpretation with as_type: as_uint(float), as_float(uint), as_int4(float4),
// as_uchar4(uint), as_ulong(uint2) and as_half2 <-> as_uint.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void as_type_bits(__global const float *f, __global const uint4 *u,
                           __global uint *bits, __global float *flipped,
                           __global uchar4 *bytes, __global ulong *wide, __global uint *hbits)
{
    size_t i = get_global_id(0);
    float x = f[i];
    uint b = as_uint(x);
    bits[i] = (b >> 23) & 0xFFu;                /* biased exponent */
    flipped[i] = as_float(b ^ 0x80000000u);     /* negate through the sign bit */
    uint4 q = u[i];
    int4 s = as_int4(q);
    bytes[i] = as_uchar4(q.x) + as_uchar4(q.y);
    wide[i] = as_ulong(q.zw) + (ulong)(s.x < 0);
    half2 h = as_half2((q.z & 0x3BFF3BFFu) | 0x04000400u); /* two normal halves < 2 */
    hbits[i] = as_uint(h + h);
}
