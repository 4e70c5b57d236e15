//! A panic in the module (a bug: malformed input is a typed error, never a panic) shows its
//! message, file and line in the console (`console_error_panic_hook`, installed by the
//! facade's start). Its own test binary: the panic ends the instance.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
#[should_panic]
fn a_panic_shows_its_message_file_and_line_in_the_console() {
    // console.error is recorded, then the facade's start installs its panic hook.
    js_sys::eval("globalThis.__errors = []; const error = console.error; console.error = (...a) => { globalThis.__errors.push(a.join(' ')); error(...a); };").unwrap();
    pcc::wasm::start();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        hook(info);
        let seen = js_sys::eval("globalThis.__errors.join('\\n')").unwrap().as_string().unwrap_or_default();
        if !(seen.contains("a bug, on purpose") && seen.contains(&format!("tests/wasm_panic.rs:{PANIC_LINE}"))) {
            // Not what the hook must show: never finish (the runner fails the test on its timeout).
            loop {}
        }
    }));
    const PANIC_LINE: u32 = line!() + 1;
    panic!("a bug, on purpose");
}
