import Foundation
import SquadKit

// Before anything opens a file: a closed stdout must not be reused by the runtime's own descriptors.
let closed = SquadApp.reserveStandardDescriptors()
// The arguments as the shell passed them: `CommandLine.arguments` has already replaced bytes that are not UTF-8.
let argumentBytes = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
exit(await SquadApp.main(argumentBytes: argumentBytes, closed: closed))
