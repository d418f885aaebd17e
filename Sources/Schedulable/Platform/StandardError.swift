#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to file descriptor 2: a report must be on the terminal before a trap, and the
/// C `stderr` global is not concurrency-safe to touch from Swift 6.
package enum StandardError {
    package static func write(_ text: String) {
        write(text, toDescriptor: 2)
        lastHeadline.storeRelaxed(0)
    }

    /// Writes `line`, a violation's headline, with one `write` call where the system allows, and notes
    /// that it is now the last thing written here, until the next ``write(_:)``.
    ///
    /// - Parameters:
    ///   - line: The headline, newline-terminated.
    ///   - number: The headline's number (not 0).
    package static func writeHeadline(_ line: String, number: UInt) {
        write(line, toDescriptor: 2)
        lastHeadline.storeRelaxed(number)
    }

    /// The number of the headline that the library wrote last to standard error, when nothing of the
    /// library's was written after it; else 0. Two threads writing at once can leave a number that is
    /// not the last line: a reader uses it only to leave out text the headline already gave.
    package static var lastHeadlineWritten: UInt { lastHeadline.loadRelaxed() }

    private static let lastHeadline = AtomicCell()

    /// Writes all of `text` to `descriptor` with as few `write` calls as the system allows: one for a
    /// line, so lines appended by several threads or processes to an `O_APPEND` file never interleave.
    package static func write(_ text: String, toDescriptor descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Darwin)
                let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #elseif canImport(Glibc)
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                let written = Musl.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Opens `path` for appending (creating it, mode 0644), or returns `nil` with the system's reason.
    package static func openForAppending(_ path: String) -> (descriptor: Int32?, error: String?) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if descriptor >= 0 { return (descriptor, nil) }
        return (nil, String(cString: strerror(errno)))
    }

    /// The value of an environment variable, read without Foundation.
    package static func environmentValue(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
