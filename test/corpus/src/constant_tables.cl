// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Program-scope __constant tables (a CRC-32 nibble table and a small S-box) and a
// __constant kernel argument; per-work-item CRC-32 over a 16-byte record.

__constant uint crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu
};

__constant uchar sbox[16] = { 12, 5, 6, 11, 9, 0, 10, 13, 3, 14, 15, 8, 4, 7, 1, 2 };

__kernel void constant_tables(__global const uchar *records, __constant uint *seed,
                              __global uint *crc, __global uchar *subst)
{
    size_t i = get_global_id(0);
    __global const uchar *r = records + 16 * i;
    uint c = ~seed[0];
    for (int k = 0; k < 16; ++k) {
        c ^= r[k];
        c = crc_nibble[c & 15u] ^ (c >> 4);
        c = crc_nibble[c & 15u] ^ (c >> 4);
    }
    crc[i] = ~c;
    uchar b = r[0];
    subst[i] = (uchar)((sbox[b >> 4] << 4) | sbox[b & 15]);
}
