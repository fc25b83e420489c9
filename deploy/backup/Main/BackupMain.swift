// The binario-backup executable. Its command is the library BinarioBackupCommand, so that the
// container image links it from its one shared library (deploy/image).
import BinarioBackupCommand

@main extension BackupCommand {}
