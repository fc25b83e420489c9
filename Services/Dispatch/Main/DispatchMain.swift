// The dispatch executable. Its command line and wiring are the library DispatchProcess, so that the
// container image links them from its one shared library (deploy/image).
import DispatchProcess

@main extension DispatchCommand {}
