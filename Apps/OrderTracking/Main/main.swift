import Foundation
import OrderTrackingKit

// Before anything opens a file: a closed stdout must not be reused by the runtime's own descriptors.
let closed = OrderTrackingApp.reserveStandardDescriptors()
exit(
    await OrderTrackingApp.main(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, closed: closed))
