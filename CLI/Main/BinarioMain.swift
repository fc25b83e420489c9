// The binario executable. Its commands are the library BinarioCLI, so that the container image
// links them from its one shared library (deploy/image).
import BinarioCLI

@main extension BinarioCommand {}
