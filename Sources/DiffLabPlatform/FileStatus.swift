/// A file's last modification time from its `stat`: the field is `st_mtim` on Linux and
/// `st_mtimespec` on Darwin. O(1).
package func modificationTime(_ status: stat) -> timespec {
    #if canImport(Darwin)
    status.st_mtimespec
    #else
    status.st_mtim
    #endif
}
