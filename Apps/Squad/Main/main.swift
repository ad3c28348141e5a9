import Foundation
import SquadKit

// Before anything opens a file: a closed stdout must not be reused by the runtime's own descriptors.
let closed = SquadApp.reserveStandardDescriptors()
exit(await SquadApp.main(Array(CommandLine.arguments.dropFirst()), closed: closed))
