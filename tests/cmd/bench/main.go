// Command bench measures the running stack (deploy/local/bench.sh starts it): the wishlist
// list through the gateway against the same query straight through pgx, latency at a fixed
// rate, and each service's resident memory afterwards.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	cfg := loadConfig()
	// `bench streams` and `bench reconnect` run one live-stream scenario instead (make bench-streams);
	// `bench lookup` the barcode lookup's figures (make bench-lookup); `bench giving` only what
	// group gifts cost the giver's shared list (make bench-giving).
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "streams":
			runStreams(cfg)
		case "reconnect":
			runReconnect(cfg)
		case "lookup":
			runLookup(cfg)
		case "storm":
			runStorm(cfg)
		case "giving":
			users, err := seedUsers(context.Background(), cfg)
			if err != nil {
				log.Fatalf("seed: %v", err)
			}
			runGivingBench(cfg, users)
		default:
			log.Fatalf("unknown scenario %q (streams, reconnect, storm, lookup, giving)", os.Args[1])
		}
		return
	}
	ctx := context.Background()

	log.Printf("signing up %d users and giving each %d items", cfg.Users, cfg.ItemsPerUser)
	users, err := seedUsers(ctx, cfg)
	if err != nil {
		log.Fatalf("seed: %v", err)
	}
	pool, err := pgxpool.New(ctx, cfg.DatabaseURL+"&pool_max_conns="+fmt.Sprint(cfg.Concurrency))
	if err != nil {
		log.Fatalf("database: %v", err)
	}
	defer pool.Close()

	// Each closed loop also records the CPU every process spent on it.
	measured := func(call func(i int) error) (*result, string) {
		before := readCPU(cfg.PidDir, cfg.Services)
		res := closedLoop(cfg.Concurrency, cfg.Duration, call)
		return res, perRequest(before, readCPU(cfg.PidDir, cfg.Services), len(res.latencies))
	}
	floor, floorCPU := measured(func(i int) error { return listThroughPgx(ctx, pool, users[i%len(users)].UID) })
	direct, directCPU := measured(func(i int) error { return listDirect(cfg.WishlistURL, users[i%len(users)].UID) })
	gateway, gatewayCPU := measured(func(i int) error { return listThroughGateway(cfg.URL, users[i%len(users)].Token) })
	steady := openLoop(cfg.Rate, cfg.Duration, func(i int) error { return listThroughGateway(cfg.URL, users[i%len(users)].Token) })

	fmt.Println()
	fmt.Printf("GET /api/wishlist, %d users x %d items, %d concurrent, %s each\n", cfg.Users, cfg.ItemsPerUser, cfg.Concurrency, cfg.Duration)
	fmt.Println(header())
	for _, line := range []string{floor.row("pgx floor (same query)"), floorCPU,
		direct.row("wishlist service directly"), directCPU, gateway.row("through the gateway"), gatewayCPU} {
		if line != "" {
			fmt.Println(line)
		}
	}
	// The floor moves between runs on a shared machine (3.6k to 8.4k req/s seen), so the ratio
	// is also measured in short rounds that alternate floor and gateway, whose median is the
	// figure to compare across runs. With a baseline (BENCH_BASELINE_URL: another commit's
	// gateway and wishlist beside the stack's, deploy/local/bench.sh) its gateway takes turns
	// in the same rounds: before and after in one run, on the same machine at the same moment.
	floorRounds := &contender{name: "pgx floor", call: func(i int) error { return listThroughPgx(ctx, pool, users[i%len(users)].UID) }}
	gatewayRounds := &contender{name: "gateway", call: func(i int) error { return listThroughGateway(cfg.URL, users[i%len(users)].Token) }}
	contenders := []*contender{gatewayRounds}
	if cfg.BaselineURL != "" {
		contenders = append(contenders, &contender{name: "baseline " + cfg.BaselineName,
			call: func(i int) error { return listThroughGateway(cfg.BaselineURL, users[i%len(users)].Token) }})
	}
	if cfg.BaselineURL != "" {
		// The stack's gateway and wishlist have just served the runs above; the baseline's
		// first requests would verify every user's token and open every connection anew
		// (its first round read 27% where the others read 40-55%).
		closedLoop(cfg.Concurrency, cfg.RoundDuration, contenders[1].call)
	}
	alternate(cfg, append(append([]string{}, cfg.Services...), cfg.BaselineServices...), floorRounds, contenders...)
	fmt.Printf("gateway / floor throughput: %.0f%% in the runs above; %s (target at least 60%%)\n",
		100*gateway.throughput()/floor.throughput(), roundsSummary(gatewayRounds.ratios(floorRounds), cfg.RoundDuration))
	if cfg.BaselineURL != "" {
		base := contenders[1]
		fmt.Printf("baseline %s gateway / floor, in the same rounds: %s\n", cfg.BaselineName, roundsSummary(base.ratios(floorRounds), cfg.RoundDuration))
		// The two gateways ran seconds apart in each round: their own ratio moves least with
		// the machine's load, which moves the floor's throughput too.
		fmt.Printf("gateway / baseline gateway, round by round: %s\n", roundsSummary(gatewayRounds.ratios(base), cfg.RoundDuration))
		fmt.Printf("CPU µs per request over the rounds (each process, summed over its own rounds):\n")
		for _, c := range []*contender{floorRounds, base, gatewayRounds} {
			fmt.Printf("  %-20s %s\n", c.name, strings.TrimSpace(c.cpuLine()))
		}
	}
	fmt.Println()
	fmt.Printf("fixed rate %d requests/s through the gateway for %s\n", cfg.Rate, cfg.Duration)
	fmt.Println(header())
	fmt.Println(steady.row(fmt.Sprintf("%d req/s", cfg.Rate)))
	fmt.Printf("p99 at %d req/s: %.1f ms (target under 25 ms)\n", cfg.Rate, ms(steady.percentile(99)))

	if cfg.NotificationLatency {
		fmt.Println()
		runNotificationBench(cfg, users)
	}
	if cfg.ImagePath {
		fmt.Println()
		runImageBench(cfg, users[0])
	}
	if cfg.Family {
		fmt.Println()
		runFamilyBench(cfg, users)
		fmt.Println()
		runGivingBench(cfg, users)
	}

	fmt.Println()
	fmt.Println("resident memory (process_resident_memory_bytes, target under 30 MB each):")
	fmt.Printf("  %-13s %14s %18s\n", "", "right after", "after 15 s idle")
	after := map[string]string{}
	for _, svc := range cfg.Services {
		name, url, _ := strings.Cut(svc, "=")
		after[name] = memoryMB(url)
	}
	// Go gives freed memory back to the system in the background; the second column is what
	// a service settles at once the load has passed.
	time.Sleep(15 * time.Second)
	for _, svc := range cfg.Services {
		name, url, _ := strings.Cut(svc, "=")
		fmt.Printf("  %-13s %14s %18s   %s\n", name, after[name], memoryMB(url), residentSplit(cfg.PidDir, name))
	}
}

// residentSplit tells a service's own memory from the pages of its binary, read from
// /proc when the stack runs on this machine (bench.sh passes the stack's pid files).
func residentSplit(pidDir, name string) string {
	if pidDir == "" {
		return ""
	}
	pid, ok := stackPID(pidDir, name)
	if !ok {
		return ""
	}
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return ""
	}
	kb := map[string]float64{}
	for _, line := range strings.Split(string(status), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && (k == "RssAnon" || k == "RssFile") {
			var n float64
			fmt.Sscan(strings.TrimSpace(v), &n)
			kb[k] = n
		}
	}
	return fmt.Sprintf("(own memory %.1f MB, binary pages %.1f MB)", kb["RssAnon"]/1024, kb["RssFile"]/1024)
}

type config struct {
	URL, WishlistURL, DatabaseURL  string
	EmulatorHost                   string
	Users, ItemsPerUser            int
	Concurrency, Rate              int
	Duration                       time.Duration
	Services                       []string
	NotificationLatency, ImagePath bool
	Family                         bool
	PidDir                         string        // where the local stack keeps its pid files, if known
	Rounds                         int           // alternating floor / gateway rounds
	RoundDuration                  time.Duration // each round's closed loop
	// BaselineURL is another commit's gateway (BaselineName), which then takes turns in the
	// rounds too; BaselineServices are its processes' names in PidDir, for their CPU.
	BaselineURL, BaselineName string
	BaselineServices          []string
}

func loadConfig() config {
	get := func(k, d string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return d
	}
	var c config
	c.URL = get("BENCH_URL", "http://127.0.0.1:18080")
	c.WishlistURL = get("BENCH_WISHLIST_URL", "http://127.0.0.1:18081")
	c.DatabaseURL = get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/santa_test?sslmode=disable")
	c.EmulatorHost = get("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:9099")
	fmt.Sscan(get("BENCH_USERS", "20"), &c.Users)
	fmt.Sscan(get("BENCH_ITEMS", "50"), &c.ItemsPerUser)
	fmt.Sscan(get("BENCH_CONCURRENCY", "16"), &c.Concurrency)
	fmt.Sscan(get("BENCH_RATE", "300"), &c.Rate)
	d, err := time.ParseDuration(get("BENCH_DURATION", "8s"))
	if err != nil {
		log.Fatalf("BENCH_DURATION: %v", err)
	}
	c.Duration = d
	fmt.Sscan(get("BENCH_ROUNDS", "5"), &c.Rounds)
	if c.RoundDuration, err = time.ParseDuration(get("BENCH_ROUND_DURATION", "3s")); err != nil {
		log.Fatalf("BENCH_ROUND_DURATION: %v", err)
	}
	c.BaselineURL, c.BaselineName = os.Getenv("BENCH_BASELINE_URL"), get("BENCH_BASELINE", "baseline")
	if c.BaselineURL != "" {
		c.BaselineServices = []string{"gateway-baseline", "wishlist-baseline"}
	}
	c.Services = strings.Split(get("BENCH_SERVICES", "gateway=http://127.0.0.1:18090,wishlist=http://127.0.0.1:18091,vision=http://127.0.0.1:18092,media=http://127.0.0.1:18093,notification=http://127.0.0.1:18094"), ",")
	c.NotificationLatency = get("BENCH_NOTIFICATIONS", "1") == "1"
	c.ImagePath = get("BENCH_IMAGES", "1") == "1"
	c.Family = get("BENCH_FAMILY", "1") == "1"
	c.PidDir = os.Getenv("BENCH_PID_DIR")
	loadGatewayIdentity(c.PidDir)
	return c
}

func memoryMB(url string) string {
	rss, err := residentMemory(url)
	if err != nil {
		return "unavailable"
	}
	return fmt.Sprintf("%.1f MB", rss/(1<<20))
}
