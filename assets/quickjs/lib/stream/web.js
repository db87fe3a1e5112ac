'use strict';
const { ReadableStream, WritableStream, TransformStream } = require('internal/webstreams');
module.exports = { ReadableStream, WritableStream, TransformStream, ReadableStreamDefaultReader: ReadableStream.Reader, TextEncoderStream: class {}, TextDecoderStream: class {}, ByteLengthQueuingStrategy: class { constructor({ highWaterMark }) { this.highWaterMark = highWaterMark; } size(c) { return c.byteLength; } }, CountQueuingStrategy: class { constructor({ highWaterMark }) { this.highWaterMark = highWaterMark; } size() { return 1; } } };
