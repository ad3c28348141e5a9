import ComponentWorkers
import Confinement
import Foundation
import HostIO
import OrderTrackingKit

let arguments = Array(CommandLine.arguments.dropFirst())
// A worker confines itself first, on the only thread, before any squad code runs or any other thread starts; a
// host hides its arguments and environment from the processes that could read them.
let unconfined = WorkerCommand.confine(arguments, sandbox: SystemSandbox.current)
if unconfined == nil { HiddenArguments.hide() }
// Before anything opens a file: a closed stdout must not be reused by the runtime's own descriptors.
let closed = OrderTrackingApp.reserveStandardDescriptors()
exit(
    await OrderTrackingApp.main(
        arguments, environment: ProcessInfo.processInfo.environment, closed: closed, unconfined: unconfined ?? []))
