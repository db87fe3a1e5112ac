// A WASI preview1 plugin in Rust for TestRunWasmPluginRust: what it may
// read, write and see under a policy (as testdata/plugin.c).
use std::env;
use std::fs;

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let greeting = env::var("GREETING").unwrap_or_else(|_| "-".into());
    let secret = env::var("WASMSAND_TEST_SECRET").unwrap_or_else(|_| "-".into());
    println!("args={:?} greeting={} secret={}", args, greeting, secret);
    println!("in={}", fs::read_to_string("/data/in.txt").unwrap_or_default());
    println!("write ro: {}", if fs::write("/data/x", "x").is_ok() { "allowed" } else { "refused" });
    println!("write rw: {}", if fs::write("/out/result.txt", "done\n").is_ok() { "ok" } else { "refused" });
    println!("host shadow: {}", if fs::metadata("/etc/shadow").is_ok() { "visible" } else { "absent" });
    if args.len() > 2 {
        std::process::exit(3);
    }
}
