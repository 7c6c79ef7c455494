import DiffLabCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

DiffLabCommand.installSignalHandling()
let status = DiffLabCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
