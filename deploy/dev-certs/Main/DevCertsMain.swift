// The binario-dev-certs executable. Its command is the library BinarioDevCertsCommand, so that the
// container image links it from its one shared library (deploy/image).
import BinarioDevCertsCommand

@main extension DevCertsCommand {}
