// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Byte-wise text processing on uchar buffers: ASCII case folding, a Caesar shift,
// digit counting, run-length of the leading character and an uchar16 vector compare.

__kernel void string_bytes(__global const uchar *text, __global uchar *upper,
                           __global uchar *caesar, __global uint *stats, uint len)
{
    uint i = get_global_id(0);
    if (i >= len)
        return;
    uchar ch = text[i];
    upper[i] = (ch >= 'a' && ch <= 'z') ? (uchar)(ch - 32) : ch;
    if (ch >= 'a' && ch <= 'z')
        caesar[i] = (uchar)('a' + (ch - 'a' + 13) % 26);
    else if (ch >= 'A' && ch <= 'Z')
        caesar[i] = (uchar)('A' + (ch - 'A' + 13) % 26);
    else
        caesar[i] = ch;

    uint run = 1;
    while (i + run < len && text[i + run] == ch)
        ++run;
    uint digits = 0;
    if ((i & 15u) == 0 && i + 16 <= len) {
        uchar16 blk = vload16(0, text + i);
        char16 isd = (blk >= (uchar16)('0')) & (blk <= (uchar16)('9'));
        for (int k = 0; k < 16; ++k)
            digits += (isd[k] != 0);
    }
    stats[2 * i] = run;
    stats[2 * i + 1] = digits;
}
