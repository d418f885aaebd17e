#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The image's function symbols, for finding a function by name (a witness thunk's implementation,
/// ``WitnessThunk``). Reporting path only.
extension DwarfImage {
    /// The function symbols (`STT_FUNC` with an address) of `.symtab`, else `.dynsym`, whose names start
    /// with `prefix` and hold `part`: each name with its link-time address. One pass over the table;
    /// only the matches become strings.
    func functions(prefixed prefix: String, holding part: String) -> [(name: String, address: UInt64)] {
        // The string table's last byte is a NUL (ELF requires it): every name read below ends in it.
        guard let (symbols, names) = table(".symtab", ".strtab") ?? table(".dynsym", ".dynstr"),
              !names.isEmpty, bytes[names.upperBound - 1] == 0, let base = bytes.baseAddress
        else { return [] }
        let strings = base.assumingMemoryBound(to: CChar.self)
        let prefixLength = prefix.utf8.count
        var found: [(name: String, address: UInt64)] = []
        // Elf64_Sym: st_name (4), st_info (1), st_other (1), st_shndx (2), st_value (8), st_size (8).
        // The names are compared by the C library: a debug build's byte loop over a test binary's
        // 80,000 symbols took seconds.
        var entry = symbols.lowerBound
        while entry + 24 <= symbols.upperBound {
            defer { entry += 24 }
            let nameOffset = Int(bytes.loadUnaligned(fromByteOffset: entry, as: UInt32.self).littleEndian)
            let address = bytes.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self).littleEndian
            guard bytes[entry + 4] & 0xf == 2, address != 0, nameOffset < names.count else { continue }
            let name = strings + names.lowerBound + nameOffset
            guard strncmp(name, prefix, prefixLength) == 0, part.isEmpty || strstr(name, part) != nil else { continue }
            found.append((String(cString: name), address))
        }
        return found
    }

    private func table(_ symbols: String, _ names: String) -> (Range<Int>, Range<Int>)? {
        guard let symbols = sections[symbols], let names = sections[names] else { return nil }
        return (symbols, names)
    }
}

extension InlinedCallSites {
    /// The file and first line of the function `implementation` names in the ELF image at `path`: its
    /// symbol found by name (``WitnessThunk``), its line the line table's row at its first address.
    /// Candidates hold the base name; where the mangler spelled a word of it as a substitution, every
    /// function of the module is a candidate. `nil` when none is, or the image has no line there.
    static func entryLine(of implementation: WitnessThunk.Implementation, inImageAt path: String) -> (path: String, line: Int)? {
        guard let image = image(at: path) else { return nil }
        let prefix = implementation.symbolPrefix
        for part in [implementation.baseName, ""] {
            let match = image.functions(prefixed: prefix, holding: part).first {
                WitnessThunk.isImplementation($0.name, of: implementation)
            }
            guard let match else { continue }
            guard let row = image.lineRow(at: match.address), row.line > 0, let file = row.path else { return nil }
            return (file, row.line)
        }
        return nil
    }
}
#endif
