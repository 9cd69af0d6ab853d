//! The TCP connections between the processes of a cluster, made before timely starts.
//!
//! Timely can connect the processes itself, but its listener polls for peers and sleeps a
//! whole second whenever none has arrived yet, which on a fresh start is nearly always: every
//! count on a cluster paid about a second before its first level (`cluster-local 2 count
//! triangle5` took 1.06 s, against 0.02 s in one process). Here each process listens on its
//! own address, connects to every process before it in the host list (retrying every few
//! milliseconds while that one is not listening yet) and accepts every process after it;
//! each connection starts with the connecting process's index, as timely's own handshake
//! does. The sockets then go to timely, which runs its send and receive threads over them.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// How often a process tries again to reach one that is not listening yet, or looks for one
/// that has not connected yet.
const POLL: Duration = Duration::from_millis(5);

/// A socket to every process of `hosts` but `me` (`None` in its place), within `patience`.
///
/// # Errors
///
/// A message naming the process that could not be reached, or that never connected, or
/// the address that could not be listened on.
pub(super) fn connect(
    hosts: &[String],
    me: usize,
    patience: Duration,
) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + patience;
    let listener = TcpListener::bind(&hosts[me])
        .map_err(|e| format!("cannot listen on {} (process {me}): {e}", hosts[me]))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {}: {e}", hosts[me]))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..hosts.len()).map(|_| None).collect();
    for (i, host) in hosts.iter().enumerate().take(me) {
        let mut stream = loop {
            match TcpStream::connect(host) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => {
                    return Err(format!("cannot reach process {i} at {host}: {e}"))
                }
                Err(_) => std::thread::sleep(POLL),
            }
        };
        let hello = (me as u64).to_le_bytes();
        stream
            .write_all(&hello)
            .map_err(|e| format!("cannot greet process {i} at {host}: {e}"))?;
        sockets[i] = Some(stream);
    }
    let mut waiting = hosts.len() - me - 1;
    while waiting > 0 {
        match listener.accept() {
            Ok((mut stream, from)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| format!("a connection from {from}: {e}"))?;
                stream
                    .set_read_timeout(Some(deadline.saturating_duration_since(Instant::now())))
                    .map_err(|e| format!("a connection from {from}: {e}"))?;
                let mut hello = [0u8; 8];
                stream
                    .read_exact(&mut hello)
                    .map_err(|e| format!("a connection from {from} said nothing: {e}"))?;
                stream
                    .set_read_timeout(None)
                    .map_err(|e| format!("a connection from {from}: {e}"))?;
                let i = u64::from_le_bytes(hello) as usize;
                if i <= me || i >= hosts.len() || sockets[i].is_some() {
                    return Err(format!(
                        "a connection from {from} says it is process {i}, which this process \
                         ({me} of {}) does not expect",
                        hosts.len()
                    ));
                }
                sockets[i] = Some(stream);
                waiting -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..hosts.len())
                        .filter(|&i| sockets[i].is_none())
                        .map(|i| i.to_string())
                        .collect();
                    return Err(format!(
                        "process(es) {} never connected to {} within {} s",
                        missing.join(", "),
                        hosts[me],
                        patience.as_secs()
                    ));
                }
                std::thread::sleep(POLL);
            }
            Err(e) => return Err(format!("cannot accept on {}: {e}", hosts[me])),
        }
    }
    for s in sockets.iter().flatten() {
        s.set_nodelay(true)
            .map_err(|e| format!("cannot set up a connection: {e}"))?;
    }
    Ok(sockets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three processes, as threads, meet: each has a socket to each other, and each socket
    /// leads to the process its place names.
    #[test]
    fn three_processes_meet() {
        let ports: Vec<u16> = (0..3)
            .map(|_| {
                let l = TcpListener::bind("127.0.0.1:0").unwrap();
                l.local_addr().unwrap().port()
            })
            .collect();
        let hosts: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
        let started = Instant::now();
        let handles: Vec<_> = (0..3)
            .rev()
            .map(|me| {
                let hosts = hosts.clone();
                std::thread::spawn(move || {
                    let mut sockets = connect(&hosts, me, Duration::from_secs(10)).unwrap();
                    // Each says who it is on every socket, and hears who is at the other end.
                    for s in sockets.iter_mut().flatten() {
                        s.write_all(&[me as u8]).unwrap();
                    }
                    let mut heard = vec![None; 3];
                    for (i, s) in sockets.iter_mut().enumerate() {
                        if let Some(s) = s {
                            let mut b = [0u8; 1];
                            s.read_exact(&mut b).unwrap();
                            heard[i] = Some(b[0] as usize);
                        }
                    }
                    heard
                })
            })
            .collect();
        for (k, h) in handles.into_iter().enumerate() {
            let me = 2 - k;
            let heard = h.join().unwrap();
            for (i, who) in heard.into_iter().enumerate() {
                assert_eq!(who, (i != me).then_some(i), "process {me}, socket {i}");
            }
        }
        // No second-long sleeps: the mesh is up in well under a second.
        assert!(
            started.elapsed() < Duration::from_millis(900),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_process_that_never_comes_is_named() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let free = l.local_addr().unwrap().port();
        drop(l);
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let other = l.local_addr().unwrap().port();
        drop(l);
        let hosts = vec![format!("127.0.0.1:{free}"), format!("127.0.0.1:{other}")];
        let e = connect(&hosts, 0, Duration::from_millis(100)).unwrap_err();
        assert!(e.contains("process(es) 1 never connected"), "{e}");
        let e = connect(&hosts, 1, Duration::from_millis(100)).unwrap_err();
        assert!(e.contains("cannot reach process 0"), "{e}");
    }
}
