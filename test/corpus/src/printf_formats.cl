// corpus: producers=llc22,spirv15 std=CL2.0 class=printf
// printf with several conversions: %d %i %u %x %X %o %c %s %f %e %g %a, length
// modifiers (hh, h, l), field width/precision, and vector formats (%v4d, %v2hlf).

__kernel void printf_formats(__global const int *in, __global const float *f)
{
    size_t i = get_global_id(0);
    int v = in[i];
    float x = f[i];
    printf("item %d: v=%i u=%u hex=%x HEX=%#X oct=%o\n", (int)i, v, (uint)v, v, v, v);
    printf("char %c str %s width [%8d] [%-6d] [%06.2f]\n", (char)('A' + (i & 15)), "text", v, v, x);
    printf("floats %f %e %g %a %.3f\n", x, x, x, x, x);
    printf("len %hhd %hd %ld %lu\n", (char)v, (short)v, (long)v * 3, (ulong)i);
    int4 iv = (int4)(v, v + 1, v + 2, v + 3);
    float2 fv = (float2)(x, -x);
    printf("vec %v4d | %v2hlf\n", iv, fv);
    if (i == 0)
        printf("done\n");
}
