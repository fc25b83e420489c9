// The gateway executable. Its command line and wiring are the library GatewayProcess, so that the
// container image links them from its one shared library (deploy/image).
import GatewayProcess

@main extension GatewayCommand {}
