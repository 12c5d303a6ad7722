// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// 8- and 16-bit integers (char, uchar, short, ushort, and char4/ushort8 vectors):
// promotions, truncating stores, wrap-around, signed/unsigned shifts and division.

__kernel void int_small_types(__global const char *c, __global const uchar *uc,
                              __global const short *s, __global const ushort *us,
                              __global char *oc, __global uchar *ouc,
                              __global short *os, __global ushort *ous,
                              __global char4 *oc4, __global ushort8 *ous8)
{
    size_t i = get_global_id(0);
    char a = c[i];
    uchar b = uc[i];
    short x = s[i];
    ushort y = us[i];
    oc[i] = (char)(a * 3 + (a >> 1));
    ouc[i] = (uchar)(b + 200u) ^ (uchar)(b << 3);
    os[i] = (short)(x / (short)((x & 7) + 1)) - (short)(y >> 5);
    ous[i] = (ushort)((uint)y * y) + (ushort)b;
    char4 v = (char4)(a, (char)b, (char)x, (char)y);
    /* wrapping multiply by (2, -3, 5, -7) done on unsigned lanes */
    oc4[i] = as_char4(as_uchar4(v) * (uchar4)(2, 253, 5, 249) + (uchar4)(1));
    ushort8 w = (ushort8)((ushort)i);
    w.s1357 = (ushort4)(y, (ushort)x, (ushort)b, (ushort)a);
    ous8[i] = w >> (ushort8)(0, 1, 2, 3, 4, 5, 6, 7);
}
