/*
 * The drives the disk model knows by name (disk_model=, dm_create()): each
 * one parameter table in which every figure names the document it comes
 * from. The keys, their units and ranges, and the checks a table must pass
 * are drivers/diskmodel-params.c's; a drive measured elsewhere comes as a
 * parameter file instead (`bench diskprobe`, disk_model=file).
 */
#include <string.h>

#include "drivers/diskmodel.h"

/*
 * The seeds' drive: "160G/8M Hitachi SATA II 7200 RPM". The 160 GB SATA II
 * Hitachi with NCQ and an 8 MB buffer of 2006-2007 is the Deskstar T7K250
 * HDT722516DLA380 (its 7K160 sibling has the same mechanics). Sources:
 *   [T7K250]  Hitachi Deskstar T7K250 Hard Disk Drive Specification v1.8
 *             (4.5.5 Throughput, Tables 11 and 12; Latency; Buffer; interface)
 *   [T7K250b] Hitachi's T7K250 product figures (as tabled in The Tech Report's
 *             review "Hitachi's Deskstar T7K250 hard drive"): sustained
 *             32.9-67.8 MB/s, 8.5 ms average read seek, 125 GB platters
 *   [7K160]   Hitachi Deskstar 7K160 specification: read look-ahead into the buffer
 *   [7K320]   Hitachi Deskstar 7K320 SATA OEM Specification, 4.4.2.2-4.4.2.3
 *             (full-stroke and single-track seek; no T7K250 figure published)
 *   [7K500]   Hitachi Deskstar 7K500 Specification, Table 10 (instantaneous
 *             and sustained rates of zones 0 and 29) and 4.4.4's formula
 *   [IDEMA]   IDEMA LBA1-02 capacity formula: 97,696,368 + 1,953,504 * (GB - 50)
 *   [ibm18es] DiskSim 4.0 valid/ibm18es.diskspecs: IBM DNES-309170W, 7200 RPM,
 *             the Deskstar line's IBM ancestry, its buffer measured by DIXtrac
 *             (westerndigitalcorporation/DiskSim); valid/ibm18es.seek and
 *             ibm18es.model: its seek curve as DIXtrac extracted it, 151
 *             distances over its 11474 cylinders ("Seek type = extracted")
 *   [atlas10k] the same for the Quantum Atlas 10K (valid/atlas10k.diskspecs)
 *   [C15K600] HGST Ultrastar C15K600 specification, mode page 08h (Minimum Pre-fetch)
 * Hitachi's desktop specifications publish no buffer segmentation and no
 * look-ahead or look-behind rules; those rows come from the analogues.
 * MB here is 10^6 bytes, as in Hitachi's documents.
 */
#define ROW(k, v, u, s)       \
	{                     \
		k, 0, v, u, s \
	}
/*
 * [ibm18es]'s measured seek curve, the shape the T7K250's three seek figures
 * scale (drivers/diskmodel-geom.c): distance in cylinders over its stroke of
 * 11473, time in ms. Of the 7200 RPM drives DiskSim holds extracted curves
 * for (IBM DNES-309170W, Seagate ST32171W, Quantum Atlas III), it is the
 * Deskstar line's own ancestor and the source of the buffer rows below.
 * Two of its 151 points are left out: 10 and 3400 cylinders at 1.020 and
 * 1.026 ms, under its one-cylinder seek (1.062 ms) and far under their
 * neighbours (1.749 and 7.373 ms): failed measurements, not seeks.
 */
#define SHAPE(cyl, ms)                                                            \
	{                                                                         \
		"seek_shape", (cyl) / 11473.0, ms, "ms", "[ibm18es] ibm18es.seek" \
	}
static const struct dm_param t7k250_params[] = {
	ROW("capacity", 312581808, "sectors", "[IDEMA] 160 GB; [T7K250] HDT722516DLA380 160 GB"),
	ROW("rpm", 7200, "rev/min", "[T7K250] Latency table: 8.3 ms a revolution, 4.17 ms average"),
	ROW("heads", 3, "surfaces",
	    "[T7K250b] 125 GB platters: 160 GB needs 3 surfaces of 62.5 GB"),
	ROW("zones", 30, "zones", "[7K500] zones 0-29 (the Deskstar family's 30 zones)"),
	ROW("track_switch", 1.479, "ms",
	    "[7K500] Table 10: sustained/instantaneous = 64.8/76.3 (zone 0), 31.0/36.5 "
	    "(zone 29) = T_rev/(T_rev+t_switch) in 4.4.4's formula: t_switch = 1.479 ms"),
	ROW("rate_outer", 67.8, "MB/s", "[T7K250b] sustained transfer rate, outer zone"),
	ROW("rate_inner", 32.9, "MB/s", "[T7K250b] sustained transfer rate, inner zone"),
	ROW("seek_single", 1.0, "ms",
	    "[7K320] 4.4.2.3 single track seek, read, typical. Between the three figures the "
	    "curve has [ibm18es]'s measured shape (the seek_shape rows)"),
	ROW("seek_average", 8.5, "ms", "[T7K250b] average read seek (with settling), typical"),
	ROW("seek_full", 20.0, "ms", "[7K320] 4.4.2.2 full stroke seek, read, typical"),
	/* clang-format off */
	SHAPE(1, 1.062), SHAPE(2, 1.477), SHAPE(3, 1.558), SHAPE(4, 1.586), SHAPE(5, 1.625),
	SHAPE(6, 1.718), SHAPE(7, 1.722), SHAPE(8, 1.719), SHAPE(9, 1.749), SHAPE(12, 1.823),
	SHAPE(14, 1.863), SHAPE(16, 1.894), SHAPE(18, 1.898), SHAPE(20, 2), SHAPE(25, 2.221),
	SHAPE(30, 2.261), SHAPE(35, 2.311), SHAPE(40, 2.411), SHAPE(45, 2.366), SHAPE(50, 2.514),
	SHAPE(60, 2.458), SHAPE(70, 2.456), SHAPE(80, 2.598), SHAPE(90, 2.616), SHAPE(100, 2.622),
	SHAPE(125, 2.94), SHAPE(150, 2.86), SHAPE(175, 3.645), SHAPE(200, 3.782),
	SHAPE(225, 3.807), SHAPE(250, 3.929), SHAPE(275, 3.997), SHAPE(300, 4.004),
	SHAPE(325, 3.997), SHAPE(350, 4.143), SHAPE(375, 4.206), SHAPE(400, 4.122),
	SHAPE(425, 4.088), SHAPE(450, 4.21), SHAPE(475, 4.331), SHAPE(500, 4.187),
	SHAPE(600, 4.451), SHAPE(700, 4.582), SHAPE(800, 4.694), SHAPE(900, 4.848),
	SHAPE(1000, 4.958), SHAPE(1100, 5.049), SHAPE(1200, 5.209), SHAPE(1300, 5.243),
	SHAPE(1400, 5.357), SHAPE(1500, 5.47), SHAPE(1600, 5.561), SHAPE(1700, 5.693),
	SHAPE(1800, 5.794), SHAPE(1900, 5.868), SHAPE(2000, 5.895), SHAPE(2100, 6.032),
	SHAPE(2200, 6.151), SHAPE(2300, 6.219), SHAPE(2400, 6.369), SHAPE(2500, 6.516),
	SHAPE(2600, 6.631), SHAPE(2700, 6.724), SHAPE(2800, 6.839), SHAPE(2900, 6.891),
	SHAPE(3000, 7.078), SHAPE(3100, 7.233), SHAPE(3200, 7.253), SHAPE(3300, 7.373),
	SHAPE(3500, 7.643), SHAPE(3600, 7.621), SHAPE(3700, 7.694), SHAPE(3800, 7.733),
	SHAPE(3900, 7.736), SHAPE(4000, 7.7), SHAPE(4100, 7.787), SHAPE(4200, 7.793),
	SHAPE(4300, 7.842), SHAPE(4400, 7.919), SHAPE(4500, 7.971), SHAPE(4600, 8.006),
	SHAPE(4700, 8.057), SHAPE(4800, 8.077), SHAPE(4900, 8.126), SHAPE(5000, 7.833),
	SHAPE(5100, 7.917), SHAPE(5200, 8.329), SHAPE(5300, 8.447), SHAPE(5400, 8.752),
	SHAPE(5500, 8.882), SHAPE(5600, 8.762), SHAPE(5700, 8.915), SHAPE(5800, 8.957),
	SHAPE(5900, 9.121), SHAPE(6000, 9.067), SHAPE(6100, 9.33), SHAPE(6200, 9.293),
	SHAPE(6300, 9.387), SHAPE(6400, 9.382), SHAPE(6500, 9.48), SHAPE(6600, 9.596),
	SHAPE(6700, 9.64), SHAPE(6800, 9.762), SHAPE(6900, 9.823), SHAPE(7000, 9.702),
	SHAPE(7100, 9.811), SHAPE(7200, 9.849), SHAPE(7300, 10.141), SHAPE(7400, 10.073),
	SHAPE(7500, 10.178), SHAPE(7600, 10.224), SHAPE(7700, 10.316), SHAPE(7800, 10.294),
	SHAPE(7900, 10.403), SHAPE(8000, 10.439), SHAPE(8100, 10.504), SHAPE(8200, 10.601),
	SHAPE(8300, 10.62), SHAPE(8400, 10.772), SHAPE(8500, 10.745), SHAPE(8600, 10.966),
	SHAPE(8700, 10.909), SHAPE(8800, 11.047), SHAPE(8900, 11.137), SHAPE(9000, 11.164),
	SHAPE(9100, 11.281), SHAPE(9200, 11.334), SHAPE(9300, 11.257), SHAPE(9400, 11.345),
	SHAPE(9500, 11.486), SHAPE(9600, 11.504), SHAPE(9700, 11.645), SHAPE(9800, 11.702),
	SHAPE(9900, 11.66), SHAPE(10000, 11.813), SHAPE(10100, 11.86), SHAPE(10200, 11.906),
	SHAPE(10300, 12.1), SHAPE(10400, 12.075), SHAPE(10500, 12.11), SHAPE(10600, 12.234),
	SHAPE(10700, 12.229), SHAPE(10800, 12.391), SHAPE(10900, 12.388), SHAPE(11000, 12.445),
	SHAPE(11100, 12.604), SHAPE(11200, 12.655), SHAPE(11300, 12.662), SHAPE(11377, 12.853),
	/* clang-format on */
	ROW("random_4096", 54.6, "s",
	    "[T7K250] Table 12: 4096 random single-sector reads, typical (105% of T); "
	    "solved for the command overhead A in T = 4096(A + B + C + 512/D + 512/E) with B "
	    "the model's own mean seek over random LBAs"),
	ROW("seq_16m_zone0", 0.28, "s",
	    "[T7K250] Table 11: 16 MiB in 128 commands, zone 0 (calibration check only)"),
	ROW("seq_16m_zone29", 0.55, "s",
	    "[T7K250] Table 11: 16 MiB in 128 commands, zone 29 (calibration check only)"),
	ROW("buffer", 8192, "KiB", "[T7K250] 8 MB buffer"),
	ROW("segments", 7, "segments",
	    "[ibm18es] 7 buffer segments (DIXtrac's measurement of the nearest analogue); "
	    "[atlas10k] 10; [T7K250] publishes none; each segment is buffer/7"),
	ROW("lookahead", 1, "bool",
	    "[7K160] read look-ahead after a read; [ibm18es] 'Buffer continuous read = 3' "
	    "(until the segment is full) with 'Maximum read-ahead' = the segment"),
	ROW("lookbehind", 1, "bool",
	    "[ibm18es] 'Read any free blocks = 1' (and [atlas10k]; the Seagate files: 0); "
	    "Hitachi publishes no rule"),
	ROW("zero_latency", 0, "bool",
	    "[ibm18es] 'Immediate buffer read = 0' ([atlas10k]: 1); Hitachi publishes no rule"),
	ROW("min_readahead", 0, "KiB",
	    "[ibm18es] 'Minimum read-ahead = 0'; [C15K600] mode page 08h: minimum pre-fetch 0 "
	    "stops the read-ahead when a command arrives, except on the current head and track"),
	ROW("bus_rate", 300, "MB/s", "[T7K250] SATA 3.0 Gb/s: 300 MB/s buffer-host"),
	ROW("ncq_depth", 32, "commands", "[T7K250] Native Command Queuing, 32 tags"),
	ROW("ncq_aging", 1000, "ms",
	    "assumed: drives bound how long shortest-positioning-first may pass a queued "
	    "command over; the limit is not published. A command older than this goes next"),
};
#undef ROW

static const struct dm_drive t7k250 = {
	.name = "hitachi-t7k250",
	.desc = "Hitachi Deskstar T7K250 HDT722516DLA380, 160 GB, 7200 RPM, 8 MB, SATA II NCQ",
	.params = t7k250_params,
	.nr_params = sizeof(t7k250_params) / sizeof(t7k250_params[0]),
};

const struct dm_drive *const dm_drives[] = {&t7k250, NULL};

const struct dm_drive *dm_find_drive(const char *name)
{
	for (int i = 0; dm_drives[i]; i++)
		if (!strcmp(dm_drives[i]->name, name))
			return dm_drives[i];
	return NULL;
}
