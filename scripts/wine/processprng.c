/*
 * bcryptprimitives.dll for Wine 8.0, for the Windows checks only (scripts/windows-check.sh):
 * never shipped. Go >= 1.22's runtime loads ProcessPrng from bcryptprimitives.dll at start,
 * which Windows 10 and later have and Wine 8.0 does not; without it every Go program stops
 * with "fatal error: bcryptprimitives.dll not found". This one fills the buffer from
 * advapi32's RtlGenRandom (SystemFunction036), which Wine has.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll processprng.c processprng.def
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	/* RtlGenRandom takes a ULONG: fill larger buffers in pieces. */
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
