// The binario-probe executable. Its command is the library BinarioProbeCommand, so that the
// container image links it from its one shared library (deploy/image).
import BinarioProbeCommand

@main extension ProbeCommand {}
