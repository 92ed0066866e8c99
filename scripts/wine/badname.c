/*
 * badname.exe FOLDER PICTURE: copies PICTURE into FOLDER under two names Windows allows
 * and no UTF-8 can hold as they are, UTF-16 with an unpaired surrogate, for the Windows
 * checks only (scripts/windows-check.sh): never shipped. It prints, per name, whether the
 * file system took it; Wine 8.0's does not (its files are named in UTF-8 on Linux).
 *
 *   x86_64-w64-mingw32-gcc -municode -O2 -o badname.exe badname.c
 */
#include <windows.h>
#include <stdio.h>
#include <wchar.h>

int wmain(int argc, wchar_t **argv)
{
	static const wchar_t *names[] = {L"lone \xD800 high.png", L"lone \xDC00 low.png"};
	static const char *what[] = {"an unpaired high surrogate", "an unpaired low surrogate"};
	int made = 0;
	if (argc != 3)
		return 2;
	for (int i = 0; i < 2; i++) {
		wchar_t path[MAX_PATH];
		if (wcslen(argv[1]) + wcslen(names[i]) + 2 > MAX_PATH)
			return 2;
		wcscpy(path, argv[1]);
		wcscat(path, L"\\");
		wcscat(path, names[i]);
		if (CopyFileW(argv[2], path, FALSE)) {
			printf("made a file named with %s\n", what[i]);
			made++;
		} else {
			printf("no file named with %s: CopyFileW failed, error %lu\n", what[i], GetLastError());
		}
	}
	return made == 2 ? 0 : 1;
}
