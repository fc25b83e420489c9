// The scheduling executable. Its command line and wiring are the library SchedulingProcess, so that the
// container image links them from its one shared library (deploy/image).
import SchedulingProcess

@main extension SchedulingCommand {}
