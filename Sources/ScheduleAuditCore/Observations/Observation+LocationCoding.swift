import Foundation

// A code location's one JSON shape, the core library's: `{"fileID", "line"}`, a site adding `"function"`
// and `"path"`. Observation files before version 2 and proposals before version 2 spelt the file
// `"file"`: both spellings are read, the current one is written.

/// The keys of a location or site, the former spelling of the file among them.
private enum LocationKey: String, CodingKey {
    case fileID, file, line, function, path
}

extension KeyedDecodingContainer<LocationKey> {
    /// The file, as `fileID` or, in files of earlier versions, `file`.
    fileprivate func fileID() throws -> String {
        if let fileID = try decodeIfPresent(String.self, forKey: .fileID) { return fileID }
        return try decode(String.self, forKey: .file)
    }
}

extension Observation.Site {
    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: LocationKey.self)
        self.init(
            file: try keys.fileID(), line: try keys.decode(Int.self, forKey: .line),
            function: try keys.decodeIfPresent(String.self, forKey: .function),
            path: try keys.decodeIfPresent(String.self, forKey: .path)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: LocationKey.self)
        try keys.encode(file, forKey: .fileID)
        try keys.encode(line, forKey: .line)
        try keys.encodeIfPresent(function, forKey: .function)
        try keys.encodeIfPresent(path, forKey: .path)
    }
}

extension Observation.File.Location {
    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: LocationKey.self)
        self.init(file: try keys.fileID(), line: try keys.decode(Int.self, forKey: .line))
    }

    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: LocationKey.self)
        try keys.encode(file, forKey: .fileID)
        try keys.encode(line, forKey: .line)
    }
}
