// The telemetry executable. Its command line and wiring are the library TelemetryProcess, so that the
// container image links them from its one shared library (deploy/image).
import TelemetryProcess

@main extension TelemetryCommand {}
