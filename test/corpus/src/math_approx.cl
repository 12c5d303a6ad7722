// corpus: producers=llc22,spirv15 std=CL2.0 class=approx
// Transcendental and geometric built-ins whose results are only ULP-accurate:
// sqrt, rsqrt, exp, exp2, log, log2, pow, sin, cos, tan, atan2, tanh, hypot,
// length, distance, normalize, native_* variants and half_* variants.

__kernel void math_approx(__global const float4 *in, __global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = fabs(in[i]) + 0.25f;
    float4 r0 = sqrt(x) + rsqrt(x) + cbrt(x);
    float4 r1 = exp(-x) + exp2(x * 0.5f) + log(x) + log2(x) + pow(x, (float4)(1.5f));
    float4 r2 = sin(x) + cos(x) + tan(x * 0.1f) + atan2(x, x.wzyx) + tanh(x);
    float l = length(x) + distance(x, x.yzwx) + hypot(x.x, x.y);
    float4 n = normalize(x) + fast_normalize(x.zyxw);
    float4 r3 = native_exp(x) + native_sqrt(x) + native_recip(x) + half_sin(x) + half_log(x);
    out[5 * i + 0] = r0;
    out[5 * i + 1] = r1;
    out[5 * i + 2] = r2;
    out[5 * i + 3] = n * l;
    out[5 * i + 4] = r3;
}
