;; A pre-initializable module (it exports wasmsand_preinit): the instrumenter
;; exports its mutable globals, so that an engine can snapshot them.
(module
  (global $sp (mut i32) (i32.const 1024))
  (global $k i32 (i32.const 7))
  (global $n (mut i64) (i64.const 0))
  (memory 1)
  (data (i32.const 16) "hello")
  (data (i32.const 4096) "\01\02\03")
  (func (export "wasmsand_preinit") (result i32)
    (global.set $sp (i32.const 2048))
    (global.set $n (i64.const 42))
    (global.get $k))
  (func (export "_start")))
