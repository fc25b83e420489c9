// The identity executable. Its command line and wiring are the library IdentityProcess, so that the
// container image links them from its one shared library (deploy/image).
import IdentityProcess

@main extension IdentityCommand {}
