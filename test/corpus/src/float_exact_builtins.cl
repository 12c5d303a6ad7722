// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Float built-ins whose results are exact for the small integer/dyadic inputs used:
// fma, mad, clamp, mix, dot, cross, fmin/fmax, fabs, copysign, floor/ceil/round/trunc,
// step, sign, isnan, isinf, isfinite, signbit, select on float4. No contraction.
#pragma OPENCL FP_CONTRACT OFF

__kernel void float_exact_builtins(__global const float4 *a, __global const float4 *b,
                                   __global float4 *out, __global float *scalars,
                                   __global int4 *classes)
{
    size_t i = get_global_id(0);
    /* keep the inputs small dyadic numbers: multiples of 1/8 in [-64, 64] */
    float4 a0 = select(a[i], (float4)(0.0f), isnan(a[i]));
    float4 b0 = select(b[i], (float4)(0.0f), isnan(b[i]));
    float4 x = floor(clamp(a0, -64.0f, 64.0f) * 8.0f) / 8.0f;
    float4 y = floor(clamp(b0, -64.0f, 64.0f) * 8.0f) / 8.0f;
    float4 r = fma(x, y, (float4)(0.5f));
    r += mad(x, (float4)(2.0f), y);
    r = fmax(r, fmin(x, y)) + mix(x, y, 0.5f);
    r.xyz += cross(x, y).xyz;
    out[3 * i] = r;
    out[3 * i + 1] = copysign(fabs(x), y) + step(0.0f, y) + sign(x);
    out[3 * i + 2] = round(x * 0.5f) + ceil(y * 0.25f) + trunc(-x * 0.75f);
    scalars[i] = dot(x, y) + dot(x.xy, y.zw);

    float4 raw = a[i];
    int4 c = isnan(raw) * 1 + isinf(raw) * 2 + isfinite(raw) * 4 + signbit(raw) * 8;
    classes[i] = c;
    out[3 * i] = select(out[3 * i], (float4)(-1.0f), isnan(raw));
}
