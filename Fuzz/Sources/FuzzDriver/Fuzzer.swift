import Foundation

/// Runs libFuzzer over `target` with the process's arguments (corpus folders and `-flags`), then exits.
///
/// SwiftPM gives every executable its own `main`, so libFuzzer's is not linked: the program calls
/// libFuzzer's driver itself. A target that finds a broken property calls `fatalError`, which libFuzzer
/// reports as a crash and saves the input that caused it.
public func runFuzzer(_ target: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    currentTarget = target
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
}

nonisolated(unsafe) private var currentTarget: ((UnsafeRawBufferPointer) -> Void)?

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point libFuzzer's runtime requires; it runs the target given to ``runFuzzer(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    currentTarget?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
