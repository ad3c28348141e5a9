import Foundation
import OrderTrackingKit

exit(
    await OrderTrackingApp.main(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
