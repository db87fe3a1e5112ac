package toolruntime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Durable mode: invocations go through a JetStream work queue instead of core NATS,
// so a job outlives the worker running it. Each tool has a durable pull consumer that
// the workers share; a worker keeps a job (InProgress) while it runs and acknowledges
// it once its response is recorded and published. A worker killed in the middle leaves
// the job unacknowledged: after AckWait it goes to another worker. Responses are kept
// by task id (a key-value bucket, an hour), so a job delivered again (its response
// recorded, its ack lost) is answered with the same response, not run twice.

// Queue is the subject durable invocations of a tool are published on.
func (s Subjects) Queue(tool string) string { return s.prefix() + "queue." + tool }

func (s Subjects) streamName() string {
	return "TOOLRT_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, strings.TrimSuffix(s.prefix(), ".a2a.v1.sam_remote_tool."))
}

// durable sets up the stream and the bucket of responses.
func (w *Worker) durable(ctx context.Context) error {
	js, err := jetstream.New(w.opt.Conn)
	if err != nil {
		return err
	}
	name := w.subj.streamName()
	if err := retry(ctx, func(ctx context.Context) error {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{w.subj.Queue(">")},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute,
			Replicas: w.opt.Replicas})
		return err
	}); err != nil {
		return fmt.Errorf("toolruntime: durable queue %s: %w", name, err)
	}
	var kv jetstream.KeyValue
	if err := retry(ctx, func(ctx context.Context) (err error) {
		kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: name + "_DONE", TTL: time.Hour,
			Storage: jetstream.FileStorage, Replicas: w.opt.Replicas})
		return err
	}); err != nil {
		return fmt.Errorf("toolruntime: responses bucket: %w", err)
	}
	w.js, w.kv = js, kv
	return nil
}

// retry tries f until it succeeds or ctx ends, each try bounded: a JetStream request
// made while a cluster elects its leader goes unanswered, and a later one succeeds.
func retry(ctx context.Context, f func(context.Context) error) error {
	for {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := f(tctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// consume starts taking a tool's durable jobs.
func (w *Worker) consume(tool string) (jetstream.ConsumeContext, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var cons jetstream.Consumer
	if err := retry(ctx, func(ctx context.Context) (err error) {
		cons, err = w.js.CreateOrUpdateConsumer(ctx, w.subj.streamName(), jetstream.ConsumerConfig{
			Durable: "tool_" + tool, FilterSubjects: []string{w.subj.Queue(tool), w.subj.Queue(tool) + ".*"}, AckPolicy: jetstream.AckExplicitPolicy,
			AckWait: w.opt.AckWait, MaxAckPending: 4 * w.opt.Concurrency, Replicas: w.opt.Replicas})
		return err
	}); err != nil {
		return nil, err
	}
	return cons.Consume(func(m jetstream.Msg) { w.receiveJob(tool, m) }, jetstream.PullMaxMessages(w.opt.Concurrency))
}

func doneKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// answered finds the recorded response of a task.
func (w *Worker) answered(id string) *Response {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	e, err := w.kv.Get(ctx, doneKey(id))
	if err != nil {
		return nil
	}
	var r Response
	if json.Unmarshal(e.Value(), &r) != nil {
		return nil
	}
	return &r
}

// receiveJob runs one durable job.
func (w *Worker) receiveJob(tool string, m jetstream.Msg) {
	w.running.Add(1)
	go func() {
		defer w.running.Done()
		defer func() {
			if r := recover(); r != nil {
				w.opt.Log.Error("invocation panicked", "tool", tool, "panic", r)
				_ = m.Nak()
			}
		}()
		// the job stays this worker's while it runs
		beat := time.NewTicker(max(w.opt.AckWait/3, 100*time.Millisecond))
		stop := make(chan struct{})
		defer func() { close(stop); beat.Stop() }()
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-beat.C:
					_ = m.InProgress()
				}
			}
		}()
		msg := &nats.Msg{Subject: m.Subject(), Header: m.Headers(), Data: m.Data()}
		if msg.Header == nil {
			msg.Header = nats.Header{}
		}
		r := w.handle(tool, msg, w.answered)
		b := encodeResponse(r)
		if r.ID != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, err := w.kv.Put(ctx, doneKey(r.ID), b)
			cancel()
			if err != nil {
				w.opt.Log.Error("response not recorded", "err", err)
				_ = m.Nak()
				return
			}
		}
		if err := w.reply(msg, r); err != nil {
			_ = m.Nak()
			return
		}
		_ = m.Ack()
	}()
}
