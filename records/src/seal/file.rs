//! The seal key kept beside a SQLite record store, so that a service started with no key
//! configured (the README's command) referees the same games after a restart.
//!
//! The file is written once, on the first start, and only read after: a fresh random key
//! (`auto-<8 hex digits>:<base64>`, the format of `ANQI_SEAL_KEY_FILE`), mode 0600, made
//! under a temporary name and linked into place, so that two services starting at once on
//! one store end up with the same key (the second finds the first's file) and none ever
//! reads half a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;

use super::{KeyError, Keys, random_bytes};

/// The key file of one store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyFile {
    pub path: PathBuf,
}

impl KeyFile {
    /// The key file of the SQLite store at `database`: `<database>.seal-key`.
    pub fn beside(database: &Path) -> KeyFile {
        let mut name = database.as_os_str().to_owned();
        name.push(".seal-key");
        KeyFile {
            path: PathBuf::from(name),
        }
    }

    /// The keys in the file; None when there is no file.
    pub fn read(&self) -> Result<Option<Keys>, KeyError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => Keys::parse(&text).map(Some).map_err(|e| self.error(e)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.error(e)),
        }
    }

    /// The keys in the file, made first when there is none: `(keys, whether this call made
    /// the file)`.
    pub fn read_or_create(&self) -> Result<(Keys, bool), KeyError> {
        if let Some(keys) = self.read()? {
            return Ok((keys, false));
        }
        let created = self.create()?;
        let keys = self.read()?.ok_or_else(|| {
            self.error("the file vanished as soon as it was written (is something deleting it?)")
        })?;
        Ok((keys, created))
    }

    /// Whether group or others may read the file (it should be the owner's only).
    pub fn readable_by_others(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(&self.path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
        }
        #[cfg(not(unix))]
        false
    }

    /// Writes a fresh key under a temporary name and links it into place; false when another
    /// process linked its own first (whose key then stands).
    fn create(&self) -> Result<bool, KeyError> {
        let bytes = random_bytes();
        let hex = |bytes: &[u8]| -> String { bytes.iter().map(|b| format!("{b:02x}")).collect() };
        let id = hex(&random_bytes()[..4]);
        let key = base64::engine::general_purpose::STANDARD.encode(bytes);
        let text = format!(
            "# The referee's seal key, made by anqi-api on its first start with this store and\n\
             # no key configured. The store's refereed games open only with it: keep it with the\n\
             # database (and as private), or move it to ANQI_SEAL_KEY_FILE.\n\
             auto-{id}:{key}\n"
        );
        let mut temporary = self.path.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", hex(&random_bytes()[..8])));
        let temporary = PathBuf::from(temporary);
        let written = write_private(&temporary, text.as_bytes());
        let linked = written.and_then(|()| std::fs::hard_link(&temporary, &self.path));
        let _ = std::fs::remove_file(&temporary);
        match linked {
            Ok(()) => {
                sync_directory(&self.path);
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(self.error(e)),
        }
    }

    fn error(&self, message: impl std::fmt::Display) -> KeyError {
        KeyError::File {
            path: self.path.display().to_string(),
            message: message.to_string(),
        }
    }
}

/// Writes `bytes` to a new file readable by its owner only, on disk when this returns.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes a new name in `path`'s directory durable (best effort: not every file system lets
/// a directory be opened).
fn sync_directory(path: &Path) {
    let directory = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = std::fs::File::open(directory) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("anqi-keyfile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn made_once_then_read() {
        let dir = scratch("once");
        let file = KeyFile::beside(&dir.join("anqi.db"));
        assert_eq!(file.path, dir.join("anqi.db.seal-key"));
        assert!(file.read().unwrap().is_none());
        let (keys, created) = file.read_or_create().unwrap();
        assert!(created);
        assert!(keys.current_id().starts_with("auto-"));
        let (again, created) = file.read_or_create().unwrap();
        assert!(!created);
        assert_eq!(again.current_id(), keys.current_id());
        // The same key: what one seals, the other opens.
        let binding = super::super::Binding {
            game: "banqi",
            preset: "tcga",
            game_id: "00",
            seat: None,
        };
        assert_eq!(again.check_token(&keys.token(binding), binding), Ok(()));
        assert!(!file.readable_by_others(), "mode 0600");
        // Nothing else was left in the directory.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("anqi.db.seal-key")]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn racing_starts_share_one_key() {
        let dir = scratch("race");
        let file = KeyFile::beside(&dir.join("anqi.db"));
        let ids: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| s.spawn(|| file.read_or_create().unwrap().0.current_id().to_owned()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_file_is_an_error_never_replaced() {
        let dir = scratch("damaged");
        let file = KeyFile::beside(&dir.join("anqi.db"));
        std::fs::write(&file.path, "auto-1:AAAA\n").unwrap();
        let error = file.read_or_create().unwrap_err();
        assert!(matches!(error, KeyError::File { .. }), "{error}");
        assert!(error.to_string().contains("anqi.db.seal-key"), "{error}");
        assert_eq!(
            std::fs::read_to_string(&file.path).unwrap(),
            "auto-1:AAAA\n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
