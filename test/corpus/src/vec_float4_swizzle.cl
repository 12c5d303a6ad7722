// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// float4/float8 vectors: component swizzles (.xyzw, .s0-sF, .hi/.lo/.even/.odd),
// swizzled stores and vector arithmetic on exactly representable values.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vec_float4_swizzle(__global const float4 *in, __global float4 *out,
                                 __global float8 *wide)
{
    size_t i = get_global_id(0);
    float4 v = in[i];
    float4 r = v.wzyx + v.xxyy * 2.0f;
    r.xy = r.yx - v.zw;
    r.w = v.s1 + v.s2;
    float2 h = v.hi + v.lo;
    float2 e = v.even * v.odd;
    out[i] = (float4)(h, e) + r;

    float8 w = (float8)(v, v.zwxy);
    w.s7 = (float)i;
    w.odd = w.even + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    wide[i] = w;
}
