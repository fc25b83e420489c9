// The ticketing executable. Its command line and wiring are the library TicketingProcess, so that the
// container image links them from its one shared library (deploy/image).
import TicketingProcess

@main extension TicketingCommand {}
