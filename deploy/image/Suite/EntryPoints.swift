import BinarioBackupCommand
import BinarioCLI
import BinarioDevCertsCommand
import BinarioLoadCommand
import BinarioProbeCommand
import Dispatch
import DispatchProcess
import GatewayProcess
import GeoOffersProcess
import IdentityProcess
import SchedulingProcess
import TelemetryProcess
import TicketingProcess

// Each executable of the image is `main.c` calling one of these by its C name,
// `binario_main_<executable>` with `-` spelled `_` (deploy/build-release.sh). They do what the
// executables' `@main` does in the development build: parse the command line, run, exit.

@_cdecl("binario_main_identity") public func identityEntry() { IdentityCommand.main() }
@_cdecl("binario_main_scheduling") public func schedulingEntry() { SchedulingCommand.main() }
@_cdecl("binario_main_ticketing") public func ticketingEntry() { TicketingCommand.main() }
@_cdecl("binario_main_geo_offers") public func geoOffersEntry() { GeoOffersCommand.main() }
@_cdecl("binario_main_dispatch") public func dispatchEntry() { DispatchCommand.main() }
@_cdecl("binario_main_telemetry") public func telemetryEntry() { TelemetryCommand.main() }
@_cdecl("binario_main_gateway") public func gatewayEntry() { GatewayCommand.main() }
@_cdecl("binario_main_binario") public func binarioEntry() { runAsync { await BinarioCommand.main() } }
@_cdecl("binario_main_binario_dev_certs") public func devCertsEntry() { DevCertsCommand.main() }
@_cdecl("binario_main_binario_probe") public func probeEntry() { runAsync { await ProbeCommand.main() } }
@_cdecl("binario_main_binario_backup") public func backupEntry() { BackupCommand.main() }
@_cdecl("binario_main_binario_loadgen") public func loadGeneratorEntry() { LoadGeneratorCommand.main() }

/// Runs an async command's `main` from a synchronous C `main`: on a task, while the main thread
/// waits for it. (Swift's own async entry point runs it on the main actor instead; nothing these
/// commands run is isolated to it.) The command exits the process itself when it fails.
private func runAsync(_ main: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    await main()
    done.signal()
  }
  done.wait()
}
