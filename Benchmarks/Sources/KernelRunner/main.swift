// Runs one kernel once, for counting instructions under valgrind's callgrind (this VM has no hardware
// counters, so the benchmark runner's `instructions` metric is unavailable).
//
//     KernelRunner check plain 200000
//
// `scripts/instructions.sh` runs it with `--toggle-collect` on the kernel's loop function, so only the
// loop is counted (setup, context entry and process start-up are not), and divides by n.

import CheckKernels
import Dispatch

let usage = """
    usage: KernelRunner check <kernel> <iterations>
           KernelRunner list
           KernelRunner bytes
    kernels: \(CheckKernel.allCases.map { "\($0)" }.joined(separator: ", "))
    """

/// Runs `kernel`; the main thread blocks on a semaphore instead of using an async `main`, because an
/// async `main` parks the main thread in libdispatch's `sigsuspend`, which valgrind 3.19 does not survive.
func runKernel(_ kernel: CheckKernel, iterations: Int) {
    let fixture = CheckFixture()
    do {
        try fixture.prepare(kernel)
    } catch {
        fatalError("cannot prepare '\(kernel)': \(error)")
    }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let unsafeFixture = fixture  // used by the one task below while main waits
    Task {
        do {
            try await unsafeFixture.run(kernel, iterations: iterations)
        } catch {
            fatalError("'\(kernel)' failed: \(error)")
        }
        done.signal()
    }
    done.wait()
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for kernel in CheckKernel.allCases {
        print("\(kernel)\t\(kernel.loopFunctionName)\t\(kernel.rawValue)")
    }
case "check" where arguments.count == 3:
    guard let kernel = CheckKernel.allCases.first(where: { "\($0)" == arguments[1] }) else {
        fatalError("no kernel named '\(arguments[1])'\n\(usage)")
    }
    guard let iterations = Int(arguments[2]), iterations >= 0 else {
        fatalError("'\(arguments[2])' is not an iteration count\n\(usage)")
    }
    runKernel(kernel, iterations: iterations)
case "bytes":
    // Heap bytes per object for the creation rows, as the allocator sized each allocation.
    for (kernel, bytes) in objectFootprints() {
        print("\(kernel)\t\(bytes)")
    }
default:
    print(usage)
}
