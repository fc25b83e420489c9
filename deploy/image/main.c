// Every executable of the container image: compiled once per executable with ENTRY its entry
// point in libBinarioSuite.so (Suite/EntryPoints.swift), by deploy/build-release.sh.
extern void ENTRY(void);

int main(void) {
  ENTRY();
  return 0;
}
