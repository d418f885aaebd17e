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
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Darwin)
                let written = Darwin.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                #elseif canImport(Glibc)
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                let written = Musl.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// The value of an environment variable, read without Foundation.
    package static func environmentValue(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
