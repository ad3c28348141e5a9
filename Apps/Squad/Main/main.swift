import Foundation
import SquadKit

exit(SquadApp.main(Array(CommandLine.arguments.dropFirst())))
