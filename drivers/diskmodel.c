/*
 * The disk timing model (see drivers/diskmodel.h for its interface; the
 * layout and mechanics are in drivers/diskmodel-geom.c, the parameters in
 * drivers/diskmodel-params.c, the built-in drives' tables in
 * drivers/diskmodel-drives.c, the printed table, derived figures and
 * counters in drivers/diskmodel-report.c). This part makes a model of a
 * drive and serves its commands:
 *  - a command costs the command overhead, then, unless the buffer has it,
 *    positioning (a seek or a head switch, then the rotational wait) and
 *    the media transfer, and ends when its last sector has crossed the
 *    SATA bus;
 *  - buffer (DiskSim's names in quotes): S segments of buffer/S. After a
 *    read the drive goes on reading the following sectors into the
 *    read's segment (read look-ahead, "Buffer continuous read" until the
 *    segment is full). Every use of the segment raises the look-ahead's
 *    limit to a segment past the host's read; it pauses while the segment
 *    is full and resumes (when its next sector comes round) once the host
 *    has taken some. A command elsewhere stops it, unless it has not yet
 *    read its minimum ("Minimum read-ahead"), or the command is on the
 *    head's current track (the C15K600's rule for a minimum of 0);
 *  - look-behind ("Read any free blocks"): a read that must position keeps
 *    the sectors of its track that pass under the head before its start,
 *    within the segment's size, when its segment holds nothing else;
 *  - zero-latency read ("Immediate buffer read"): a read whose head lands
 *    inside its range on its first track starts reading there and is done
 *    when the head comes round to where it landed;
 *  - a read found in a segment costs the overhead and the bus transfer and
 *    does not hold the mechanism; a read that the look-ahead will reach
 *    waits for it;
 *  - NCQ: up to 32 commands wait in the drive; when the mechanism is free
 *    the drive serves the one with the shortest positioning time (buffer
 *    hits first), oldest first among equals, unless the oldest has waited
 *    longer than the aging limit, which then goes next.
 * One function, plan(), says what a command would cost if started at a
 * time; the scheduler compares its answers and service() carries one out,
 * so the two never decide differently.
 *
 * Times inside are double nanoseconds; the interface rounds up to whole
 * nanoseconds, so a caller that waits until dm_next_event() is never early.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel-internal.h"
#include "kernel/log.h"
#include "mm/mm.h"

const struct dm_drive *dm_drive_of(const struct disk_model *m)
{
	return m->drive;
}

struct disk_model *dm_create(const char *name, uint64_t image_sectors)
{
	const struct dm_drive *d = dm_find_drive(name);

	if (!d) {
		pr_err("diskmodel: no drive model '%s'\n", name);
		return NULL;
	}
	return dm_create_drive(d, image_sectors);
}

struct disk_model *dm_create_drive(const struct dm_drive *d, uint64_t image_sectors)
{
	struct disk_model *m = kzalloc(sizeof(*m));
	struct dm_drive *own = dm_drive_dup(d);

	if (!m || !own) {
		pr_err("diskmodel: out of memory for a model of %s\n", d->name);
		goto fail;
	}
	m->drive = own;
	if (dm_config_of(own, &m->cfg) || dm_build_geometry(m))
		goto fail;
	if (image_sectors > m->g.nr_sectors) {
		pr_err("diskmodel: the disk has %llu sectors, more than the %s's %llu\n",
		       (unsigned long long)image_sectors, own->name,
		       (unsigned long long)m->g.nr_sectors);
		goto fail;
	}
	return m;
fail:
	kfree(own);
	kfree(m);
	return NULL;
}

void dm_destroy(struct disk_model *m)
{
	if (!m)
		return;
	kfree((void *)m->drive);
	kfree(m);
}

/* --- the look-ahead and the buffer ------------------------------------------------ */

/* The first LBA the look-ahead has not read by @t. */
static uint64_t la_reach(const struct disk_model *m, double t)
{
	if (t <= m->la.time)
		return m->la.lba;
	return dm_media_reach(m, m->la.lba, m->la.limit, t - m->la.time);
}

/* When the look-ahead will have read up to @x (<= its limit), as it runs now. */
static double la_time_to(const struct disk_model *m, uint64_t x)
{
	return m->la.time + dm_media_ns(m, m->la.lba, max(x, m->la.lba));
}

/* The track the head is on at @t. */
static uint64_t head_track_at(const struct disk_model *m, double t)
{
	uint64_t r;

	if (!m->la.on)
		return m->head_track;
	if (t < m->la.time)
		return m->la.track_before;
	r = la_reach(m, t);
	return dm_track_of(m, r > m->la.lba ? r - 1 : r, NULL);
}

/* Buffered range of segment @i at @t. */
static void seg_range(const struct disk_model *m, int i, double t, uint64_t *start, uint64_t *end)
{
	*start = m->seg[i].start;
	*end = m->seg[i].end;
	if (m->la.on && i == m->la.seg) {
		*end = la_reach(m, t);
		if (*end - *start > m->g.segment_sectors)
			*start = *end - m->g.segment_sectors;
	}
}

/* The segment holding @lba at @t (the one reaching furthest), or -1; its end in *@end. */
static int seg_lookup(const struct disk_model *m, uint64_t lba, double t, uint64_t *end)
{
	int best = -1;

	for (int i = 0; i < (int)m->g.segments; i++) {
		uint64_t s, e;

		seg_range(m, i, t, &s, &e);
		if (s <= lba && lba < e && (best < 0 || e > *end)) {
			*end = e;
			best = i;
		}
	}
	return best;
}

static int seg_victim(const struct disk_model *m)
{
	int v = 0;

	for (int i = 1; i < (int)m->g.segments; i++)
		if (m->seg[i].used < m->seg[v].used)
			v = i;
	return v;
}

static void seg_invalidate(struct disk_model *m, uint64_t lba, uint64_t end)
{
	for (int i = 0; i < (int)m->g.segments; i++)
		if (m->seg[i].start < end && lba < m->seg[i].end)
			m->seg[i].start = m->seg[i].end = 0;
}

/* Stop the look-ahead at @t, keeping what it read; not past @cap. */
static void la_stop(struct disk_model *m, double t, uint64_t cap)
{
	struct dm_segment *s = &m->seg[m->la.seg];

	if (!m->la.on)
		return;
	m->head_track = head_track_at(m, t);
	seg_range(m, m->la.seg, t, &s->start, &s->end);
	if (s->end > cap)
		s->end = max(cap, s->start);
	m->la.on = false;
}

/*
 * When the look-ahead would have read up to @x if a command at @t raises
 * its limit that far: as it runs, or, when it has paused at its limit
 * before @t, from when its next sector comes round again.
 */
static double la_resume_time(const struct disk_model *m, uint64_t x, double t, double *resume)
{
	double paused = la_time_to(m, m->la.limit);
	uint64_t lim = m->la.limit;

	*resume = -1;
	if (x <= lim || paused > t)
		return la_time_to(m, x);
	/* the head waits on the limit's track, or must switch to reach it */
	if (dm_track_of(m, lim, NULL) != dm_track_of(m, lim - 1, NULL))
		paused += m->g.switch_ns;
	*resume = dm_next_pass(m, lim, max(t, paused));
	return *resume + dm_media_ns(m, lim, x);
}

/* A use of the look-ahead's segment up to @end at @t: raise its limit (resume if paused). */
static void la_raise(struct disk_model *m, uint64_t end, double t)
{
	uint64_t want = min_t(uint64_t, end + m->g.segment_sectors, m->g.nr_sectors);
	double resume;

	if (want <= m->la.limit)
		return;
	la_resume_time(m, want, t, &resume);
	if (resume >= 0) {
		m->la.track_before = dm_track_of(m, m->la.limit - 1, NULL);
		m->la.lba = m->la.limit;
		m->la.time = resume;
	}
	m->la.limit = want;
	m->la.min_end = max(m->la.min_end, min(end + m->g.min_readahead, want));
}

/* After a read of [.., end) whose last sector ended at @t, with the head on @track. */
static void la_start(struct disk_model *m, uint64_t start, uint64_t end, double t, uint64_t track)
{
	int v = seg_victim(m);

	m->seg[v].start = end - min_t(uint64_t, end - start, m->g.segment_sectors);
	m->seg[v].end = end;
	m->seg[v].used = ++m->seg_clock;
	m->head_track = track;
	if (!m->g.lookahead || end >= m->g.nr_sectors)
		return;
	m->la = (struct dm_lookahead){
		.on = true,
		.seg = v,
		.lba = end,
		.limit = min_t(uint64_t, end + m->g.segment_sectors, m->g.nr_sectors),
		.min_end = min_t(uint64_t, end + m->g.min_readahead, m->g.nr_sectors),
		.track_before = track,
	};
	if (dm_track_of(m, end, NULL) != track)
		t += m->g.switch_ns;
	m->la.time = dm_next_pass(m, end, t);
}

/* --- planning a command ------------------------------------------------------------- */

enum dm_kind { K_FLUSH, K_WRITE, K_HIT, K_STREAM, K_MISS };

/* What starting a command at some time would do; computed without side effects. */
struct dm_plan {
	enum dm_kind kind;
	double t0;	  /* the overhead is done */
	double cost;	  /* the scheduler's measure: positioning time */
	double t_pos;	  /* MISS/WRITE: the head leaves for the target (the look-ahead stops) */
	double ready;	  /* MISS/WRITE: the seek or switch has settled */
	double media_end; /* the last sector is in the buffer (or written) */
	double head_free; /* the mechanism takes the next command then */
	double done;
	double seek, rotate, media;
	int seg;	   /* HIT/STREAM: the segment */
	uint64_t from;	   /* MISS: first LBA read from the media (a buffered front before it) */
	uint64_t lb_start; /* MISS: look-behind kept [lb_start, from); == from: none */
	uint64_t track;	   /* MISS/WRITE: the head's track at the end */
	bool zl, same_track;
};

/*
 * A miss's media access from @p->ready: the rotational wait and the
 * transfer, zero-latency when it gains, and what look-behind keeps.
 */
static void plan_media(const struct disk_model *m, const struct dm_cmd *c, struct dm_plan *p,
		       bool empty_segment)
{
	uint64_t end = c->lba + c->n, from = p->from, ts = dm_track_start(m, from);
	uint32_t spt = dm_zone_of(m, from)->spt, p_off, from_off = (uint32_t)(from - ts);
	uint32_t end_off = (uint32_t)min_t(uint64_t, end - ts, spt);
	double media = dm_media_ns(m, from, end), start = dm_next_pass(m, from, p->ready);
	double rel = dm_phase_at(m, p->ready) - dm_angle_of(m, ts), land;

	/* the first sector boundary to pass under the head after it settles */
	rel -= floor(rel);
	p_off = (uint32_t)ceil(rel * spt - 1e-9) % spt;
	land = dm_next_pass(m, ts + p_off, p->ready);
	p->media_end = start + media;
	p->track = dm_track_of(m, end - 1, NULL);
	p->zl = false;
	if (c->op == DM_READ && m->g.zero_latency && p_off > from_off && p_off < end_off) {
		/* read from where it landed; done when the head comes round to it again */
		double t1 = land + m->g.rev_ns, zl_end = t1;

		if (end > ts + spt) {
			uint64_t next = ts + spt;

			zl_end = dm_next_pass(m, next, t1 + m->g.switch_ns) +
				 dm_media_ns(m, next, end);
		}
		if (zl_end < p->media_end) {
			p->zl = true;
			p->media_end = zl_end;
			p->track = end > ts + spt ? p->track : dm_track_of(m, from, NULL);
		}
	}
	p->media = media;
	p->rotate = p->media_end - p->ready - media;
	/* look-behind: the sectors of the track that pass before the read reaches its start */
	p->lb_start = from;
	if (c->op == DM_READ && m->g.lookbehind && empty_segment) {
		uint64_t lb = (p->zl || p_off > from_off) ? ts : ts + p_off;

		if (end - lb > m->g.segment_sectors)
			lb = end > m->g.segment_sectors ? end - m->g.segment_sectors : 0;
		p->lb_start = min(max(lb, ts), from);
	}
}

/* A read the look-ahead will reach: wait for it (resuming it if it has paused). */
static void plan_stream(const struct disk_model *m, const struct dm_cmd *c, uint64_t here,
			struct dm_plan *p)
{
	uint64_t end = c->lba + c->n;
	double bytes_ns = (double)c->n * 512 * m->g.bus_ns_per_byte, resume;

	p->kind = K_STREAM;
	p->seg = m->la.seg;
	p->media_end = la_resume_time(m, end, p->t0, &resume);
	p->media = dm_media_ns(m, max(c->lba, here), end);
	p->cost = max(0.0, p->media_end - p->t0 - p->media);
	p->head_free = p->media_end;
	p->done = max(max(p->media_end + 512 * m->g.bus_ns_per_byte, p->t0 + bytes_ns),
		      m->bus_free + bytes_ns);
}

/* A read or write from the media at @p->from: the head moves (or waits on its track). */
static void plan_miss(const struct disk_model *m, const struct dm_cmd *c, bool empty_segment,
		      struct dm_plan *p)
{
	uint64_t from_track = head_track_at(m, p->t0), to = dm_track_of(m, p->from, NULL);
	double bytes_ns = (double)c->n * 512 * m->g.bus_ns_per_byte;

	p->kind = c->op == DM_WRITE ? K_WRITE : K_MISS;
	/* a running look-ahead goes on to its minimum before the head moves off its track */
	p->t_pos = p->t0;
	p->same_track = m->la.on && c->op == DM_READ && from_track == to;
	if (m->la.on && !p->same_track && la_reach(m, p->t0) < m->la.min_end)
		p->t_pos = max(p->t0, la_time_to(m, m->la.min_end));
	p->seek = dm_move_ns(m, head_track_at(m, p->t_pos), to);
	p->ready = p->t_pos + p->seek;
	plan_media(m, c, p, empty_segment);
	p->cost = p->media_end - p->t0 - p->media;
	p->head_free = p->media_end;
	p->done = max(max(p->media_end + 512 * m->g.bus_ns_per_byte, p->t0 + bytes_ns),
		      m->bus_free + bytes_ns);
}

/*
 * What command @c would do if the mechanism took it at @t. A read the
 * look-ahead has partly read, or will reach within its limit, waits for it
 * if it gets there within a revolution (positioning could cost as much,
 * and would stop the look-ahead and lose what it reads for the next
 * commands) or if that ends sooner anyway; farther off, the drive
 * positions (DiskSim stops a prefetch for a request it has not reached).
 */
static void plan(const struct disk_model *m, const struct dm_cmd *c, double t, struct dm_plan *p)
{
	uint64_t end = c->lba + c->n, buf_end = 0, here;
	double bytes_ns = (double)c->n * 512 * m->g.bus_ns_per_byte;
	struct dm_plan stream;
	bool can_stream;
	int s = -1;

	memset(p, 0, sizeof(*p));
	p->t0 = t + m->g.overhead_ns;
	p->seg = -1;
	p->from = c->lba;
	if (c->op == DM_FLUSH) {
		p->kind = K_FLUSH;
		p->done = p->head_free = p->t0;
		return;
	}
	if (c->op == DM_WRITE) {
		plan_miss(m, c, false, p);
		return;
	}
	s = seg_lookup(m, c->lba, p->t0, &buf_end);
	if (s >= 0 && buf_end >= end) {
		/* wholly buffered: the bus only; the mechanism is not needed */
		p->kind = K_HIT;
		p->seg = s;
		p->head_free = p->t0;
		p->done = max(p->t0, m->bus_free) + bytes_ns;
		return;
	}
	here = m->la.on ? la_reach(m, p->t0) : 0;
	can_stream = m->la.on && ((s == m->la.seg && buf_end == here) ||
				  (c->lba >= here && c->lba <= m->la.limit));
	if (s >= 0)
		p->from = buf_end;
	plan_miss(m, c, s < 0, p);
	if (can_stream) {
		memset(&stream, 0, sizeof(stream));
		stream.t0 = p->t0;
		plan_stream(m, c, here, &stream);
		if (stream.cost <= m->g.rev_ns || stream.media_end <= p->media_end)
			*p = stream;
	}
}

/* --- serving ------------------------------------------------------------------------ */

/* Start @tag at @t as @p says: the buffer, the look-ahead and the command's phases. */
static void service(struct disk_model *m, int tag, double t, const struct dm_plan *p)
{
	struct dm_cmd *c = &m->cmds[tag];
	uint64_t end = c->lba + c->n;

	c->start = t;
	c->done = p->done;
	c->seek = p->seek;
	c->rotate = p->rotate;
	c->media = p->media;
	c->bus = (double)c->n * 512 * m->g.bus_ns_per_byte;
	c->held = p->head_free - t;
	c->hit = p->kind == K_HIT;
	c->stream = p->kind == K_STREAM;
	c->lookbehind = p->kind == K_MISS && p->lb_start < p->from;
	c->zero_latency = p->zl;
	m->head_free = p->head_free;
	if (p->kind != K_FLUSH)
		m->bus_free = max(m->bus_free, p->done);
	switch (p->kind) {
	case K_FLUSH:
		c->bus = 0;
		return;
	case K_HIT:
		m->seg[p->seg].used = ++m->seg_clock;
		if (m->la.on && p->seg == m->la.seg)
			la_raise(m, end, p->t0);
		return;
	case K_STREAM:
		m->seg[p->seg].used = ++m->seg_clock;
		la_raise(m, end, p->t0);
		return;
	case K_WRITE:
		la_stop(m, p->t_pos, UINT64_MAX);
		seg_invalidate(m, c->lba, end);
		m->head_track = p->track;
		break;
	case K_MISS:
		/* on the head's track the look-ahead reads on while the head waits */
		la_stop(m, p->same_track ? p->ready + p->rotate : p->t_pos,
			p->same_track ? dm_track_start(m, p->from) + dm_zone_of(m, p->from)->spt
				      : UINT64_MAX);
		la_start(m, p->lb_start < p->from ? p->lb_start : c->lba, end, p->media_end,
			 p->track);
		break;
	}
	m->st.misses++;
	if (p->seek > m->g.switch_ns)
		m->st.seeks++;
	m->st.lookbehind += c->lookbehind;
	m->st.zero_latency += c->zero_latency;
}

static void account(struct disk_model *m, const struct dm_cmd *c)
{
	struct dm_stats *st = &m->st;

	st->commands++;
	if (c->op == DM_READ)
		st->reads++;
	else if (c->op == DM_WRITE)
		st->writes++;
	else
		st->flushes++;
	st->buffer_hits += c->hit;
	st->stream_hits += c->stream;
	st->sectors += c->n;
	st->overhead_ns += (uint64_t)m->g.overhead_ns;
	st->seek_ns += (uint64_t)c->seek;
	st->rotate_ns += (uint64_t)c->rotate;
	st->media_ns += (uint64_t)c->media;
	if (c->hit)
		st->hit_ns += (uint64_t)(c->done - c->start);
	else
		st->bus_ns += (uint64_t)c->bus;
	st->service_ns += (uint64_t)(c->done - c->start);
	st->busy_ns += (uint64_t)c->held;
}

/* The mechanism is free at @t: pick the next queued command (SPTF) and start it. */
static void start_next(struct disk_model *m, double t)
{
	struct dm_plan best_plan, pl;
	int best = -1, oldest = -1;

	for (uint32_t q = m->queued; q; q &= q - 1) {
		int tag = __builtin_ctz(q);
		const struct dm_cmd *c = &m->cmds[tag];

		if (oldest < 0 || c->order < m->cmds[oldest].order)
			oldest = tag;
		plan(m, c, t, &pl);
		if (best < 0 || pl.cost < best_plan.cost ||
		    (pl.cost == best_plan.cost && c->order < m->cmds[best].order)) {
			best = tag;
			best_plan = pl;
		}
	}
	if (best < 0)
		return;
	/* aging: a command passed over for too long goes next, whatever its position */
	if (best != oldest && t - (double)m->cmds[oldest].arrive > m->g.aging_ns) {
		best = oldest;
		plan(m, &m->cmds[best], t, &best_plan);
		m->st.aged++;
	}
	if (best != oldest)
		m->st.reordered++;
	m->queued &= ~(1u << best);
	m->inflight |= 1u << best;
	service(m, best, t, &best_plan);
}

/* The in-flight command finishing first (ties: the lower tag), or -1. */
static int first_done(const struct disk_model *m)
{
	int best = -1;

	for (uint32_t f = m->inflight; f; f &= f - 1) {
		int tag = __builtin_ctz(f);

		if (best < 0 || m->cmds[tag].done < m->cmds[best].done)
			best = tag;
	}
	return best;
}

/* Run the drive up to @now: in time order, commands finish and the mechanism takes the next. */
static void advance(struct disk_model *m, double now)
{
	for (;;) {
		int d = first_done(m);
		double td = d >= 0 ? m->cmds[d].done : INFINITY;
		double ts = m->queued ? m->head_free : INFINITY;

		if (td <= ts && td <= now) {
			m->inflight &= ~(1u << d);
			m->finished |= 1u << d;
			account(m, &m->cmds[d]);
		} else if (ts < td && ts <= now) {
			start_next(m, ts);
		} else {
			break;
		}
	}
}

static uint64_t ns_up(double t)
{
	return (uint64_t)ceil(t);
}

int dm_submit(struct disk_model *m, int tag, enum dm_op op, uint64_t lba, uint32_t nsect,
	      uint64_t now)
{
	uint32_t bit = tag >= 0 && tag < DM_MAX_QUEUE ? 1u << tag : 0;
	struct dm_cmd *c;

	if (now < m->last_now) {
		pr_err("diskmodel: a command at %llu ns, before %llu ns: the caller's clock went "
		       "back\n",
		       (unsigned long long)now, (unsigned long long)m->last_now);
		return -EINVAL;
	}
	if (!bit || ((m->queued | m->inflight | m->finished) & bit) ||
	    (op != DM_FLUSH && (!nsect || lba >= m->g.nr_sectors || nsect > m->g.nr_sectors - lba)))
		return -EINVAL;
	m->last_now = now;
	advance(m, (double)now);
	c = &m->cmds[tag];
	*c = (struct dm_cmd){.op = op,
			     .lba = lba,
			     .n = op == DM_FLUSH ? 0 : nsect,
			     .arrive = now,
			     .order = ++m->order};
	m->queued |= bit;
	m->st.max_queued = max(m->st.max_queued, dm_queued(m));
	if (m->head_free < (double)now)
		m->head_free = (double)now;
	advance(m, (double)now);
	return 0;
}

uint64_t dm_next_event(struct disk_model *m)
{
	uint64_t t = DM_NONE;
	int d = first_done(m);

	for (uint32_t f = m->finished; f; f &= f - 1)
		t = min(t, ns_up(m->cmds[__builtin_ctz(f)].done));
	if (d >= 0)
		t = min(t, ns_up(m->cmds[d].done));
	if (m->queued)
		t = min(t, ns_up(m->head_free));
	return t;
}

int dm_reap(struct disk_model *m, uint64_t now, struct dm_completion *out)
{
	int best = -1;

	m->last_now = max(m->last_now, now);
	advance(m, (double)now);
	for (uint32_t f = m->finished; f; f &= f - 1) {
		int tag = __builtin_ctz(f);

		if (best < 0 || m->cmds[tag].done < m->cmds[best].done)
			best = tag;
	}
	if (best < 0)
		return -1;
	m->finished &= ~(1u << best);
	if (out) {
		const struct dm_cmd *c = &m->cmds[best];

		*out = (struct dm_completion){
			.tag = best,
			.arrive_ns = c->arrive,
			.start_ns = ns_up(c->start),
			.done_ns = ns_up(c->done),
			.seek_ns = (uint64_t)c->seek,
			.rotate_ns = (uint64_t)c->rotate,
			.media_ns = (uint64_t)c->media,
			.bus_ns = (uint64_t)c->bus,
			.buffer_hit = c->hit,
			.stream_hit = c->stream,
		};
	}
	return best;
}

void dm_abort_all(struct disk_model *m, uint64_t now)
{
	m->queued = m->inflight = m->finished = 0;
	m->last_now = max(m->last_now, now);
	m->la.on = false;
	m->head_free = m->bus_free = (double)now;
	for (int i = 0; i < DM_MAX_SEGMENTS; i++)
		m->seg[i].start = m->seg[i].end = 0;
}

int dm_cool(struct disk_model *m, uint64_t now)
{
	if (dm_queued(m))
		return -EBUSY;
	if (now < m->last_now)
		return -EINVAL;
	/* everything a fresh model starts with, @now ns later; the counters stay */
	memset(m->cmds, 0, sizeof(m->cmds));
	m->order = 0;
	m->head_track = 0;
	m->head_free = m->bus_free = (double)now;
	m->last_now = now;
	memset(&m->la, 0, sizeof(m->la));
	memset(m->seg, 0, sizeof(m->seg));
	m->seg_clock = 0;
	m->phase0 = (double)now;
	return 0;
}

unsigned int dm_queued(const struct disk_model *m)
{
	return (unsigned int)__builtin_popcount(m->queued | m->inflight | m->finished);
}
