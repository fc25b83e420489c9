// The binario-loadgen executable. Its command is the library BinarioLoadCommand, so that the
// container image links it from its one shared library (deploy/image).
import BinarioLoadCommand

@main extension LoadGeneratorCommand {}
