BEGIN TRANSACTION;
CREATE TABLE actions (
	game_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action VARCHAR(60) NOT NULL, 
	dice VARCHAR(2000) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, seq), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "actions" VALUES(1,1,0,'roll','15251','2026-12-01 13:59:07.940714');
INSERT INTO "actions" VALUES(1,2,0,'roll','51143','2026-12-01 13:59:07.941800');
INSERT INTO "actions" VALUES(1,3,0,'score ones','','2026-12-01 13:59:07.942287');
INSERT INTO "actions" VALUES(1,4,1,'roll','53311','2026-12-01 13:59:08.125323');
INSERT INTO "actions" VALUES(1,5,1,'hold 4 5','','2026-12-01 13:59:08.340256');
INSERT INTO "actions" VALUES(1,6,1,'roll','163','2026-12-01 13:59:08.341202');
INSERT INTO "actions" VALUES(1,7,1,'hold 1','','2026-12-01 13:59:08.341643');
INSERT INTO "actions" VALUES(1,8,1,'roll','13','2026-12-01 13:59:08.342075');
INSERT INTO "actions" VALUES(1,9,1,'score ones','','2026-12-01 13:59:08.345882');
INSERT INTO "actions" VALUES(1,10,0,'roll','24646','2026-12-01 13:59:08.346522');
INSERT INTO "actions" VALUES(1,11,0,'roll','56352','2026-12-01 13:59:08.346984');
INSERT INTO "actions" VALUES(1,12,0,'score twos','','2026-12-01 13:59:08.347346');
INSERT INTO "actions" VALUES(1,13,1,'roll','35331','2026-12-01 13:59:08.347571');
INSERT INTO "actions" VALUES(1,14,1,'hold 1 3 4','','2026-12-01 13:59:08.347852');
INSERT INTO "actions" VALUES(1,15,1,'roll','63','2026-12-01 13:59:08.348122');
INSERT INTO "actions" VALUES(1,16,1,'hold 5','','2026-12-01 13:59:08.348527');
INSERT INTO "actions" VALUES(1,17,1,'roll','1','2026-12-01 13:59:08.348790');
INSERT INTO "actions" VALUES(1,18,1,'score threes','','2026-12-01 13:59:08.349157');
INSERT INTO "actions" VALUES(1,19,0,'roll','12216','2026-12-01 13:59:08.349347');
INSERT INTO "actions" VALUES(1,20,0,'roll','33542','2026-12-01 13:59:08.349603');
INSERT INTO "actions" VALUES(1,21,0,'score threes','','2026-12-01 13:59:08.349919');
INSERT INTO "actions" VALUES(1,22,1,'roll','31125','2026-12-01 13:59:08.350100');
INSERT INTO "actions" VALUES(1,23,1,'hold 5','','2026-12-01 13:59:08.350395');
INSERT INTO "actions" VALUES(1,24,1,'roll','1314','2026-12-01 13:59:08.350641');
INSERT INTO "actions" VALUES(1,25,1,'hold 4','','2026-12-01 13:59:08.350866');
INSERT INTO "actions" VALUES(1,26,1,'roll','121','2026-12-01 13:59:08.351091');
INSERT INTO "actions" VALUES(1,27,1,'score twos','','2026-12-01 13:59:08.351433');
INSERT INTO "actions" VALUES(1,28,0,'roll','13554','2026-12-01 13:59:08.351628');
INSERT INTO "actions" VALUES(1,29,0,'roll','16123','2026-12-01 13:59:08.351914');
INSERT INTO "actions" VALUES(1,30,0,'score fours','','2026-12-01 13:59:08.352228');
INSERT INTO "actions" VALUES(1,31,1,'roll','34533','2026-12-01 13:59:08.352419');
INSERT INTO "actions" VALUES(1,32,1,'hold 1 4 5','','2026-12-01 13:59:08.352651');
INSERT INTO "actions" VALUES(1,33,1,'roll','43','2026-12-01 13:59:08.352900');
INSERT INTO "actions" VALUES(1,34,1,'hold 3','','2026-12-01 13:59:08.353169');
INSERT INTO "actions" VALUES(1,35,1,'roll','3','2026-12-01 13:59:08.353403');
INSERT INTO "actions" VALUES(1,36,1,'score yahtzee','','2026-12-01 13:59:08.353753');
INSERT INTO "actions" VALUES(1,37,0,'roll','13335','2026-12-01 13:59:08.353933');
INSERT INTO "actions" VALUES(1,38,0,'roll','54533','2026-12-01 13:59:08.354167');
INSERT INTO "actions" VALUES(1,39,0,'score fives','','2026-12-01 13:59:08.354507');
INSERT INTO "actions" VALUES(1,40,1,'roll','14463','2026-12-01 13:59:08.354693');
INSERT INTO "actions" VALUES(1,41,1,'hold 2 3 4','','2026-12-01 13:59:08.354923');
INSERT INTO "actions" VALUES(1,42,1,'roll','53','2026-12-01 13:59:08.355153');
INSERT INTO "actions" VALUES(1,43,1,'release 3','','2026-12-01 13:59:08.355386');
INSERT INTO "actions" VALUES(1,44,1,'hold 1 5','','2026-12-01 13:59:08.355606');
INSERT INTO "actions" VALUES(1,45,1,'roll','1','2026-12-01 13:59:08.355830');
INSERT INTO "actions" VALUES(1,46,1,'score small_straight','','2026-12-01 13:59:08.356149');
INSERT INTO "actions" VALUES(1,47,0,'roll','65623','2026-12-01 13:59:08.356325');
INSERT INTO "actions" VALUES(1,48,0,'roll','44632','2026-12-01 13:59:08.356553');
INSERT INTO "actions" VALUES(1,49,0,'score sixes','','2026-12-01 13:59:08.356824');
INSERT INTO "actions" VALUES(1,50,1,'roll','33262','2026-12-01 13:59:08.357000');
INSERT INTO "actions" VALUES(1,51,1,'hold 4','','2026-12-01 13:59:08.357231');
INSERT INTO "actions" VALUES(1,52,1,'roll','1661','2026-12-01 13:59:08.357460');
INSERT INTO "actions" VALUES(1,53,1,'hold 2 3','','2026-12-01 13:59:08.357683');
INSERT INTO "actions" VALUES(1,54,1,'roll','63','2026-12-01 13:59:08.357904');
INSERT INTO "actions" VALUES(1,55,1,'score four_of_a_kind','','2026-12-01 13:59:08.358297');
INSERT INTO "actions" VALUES(1,56,0,'roll','63324','2026-12-01 13:59:08.358514');
INSERT INTO "actions" VALUES(1,57,0,'roll','66331','2026-12-01 13:59:08.358753');
INSERT INTO "actions" VALUES(1,58,0,'score three_of_a_kind','','2026-12-01 13:59:08.359028');
INSERT INTO "actions" VALUES(1,59,1,'roll','35326','2026-12-01 13:59:08.359211');
INSERT INTO "actions" VALUES(1,60,1,'hold 2 5','','2026-12-01 13:59:08.359438');
INSERT INTO "actions" VALUES(1,61,1,'roll','613','2026-12-01 13:59:08.359669');
INSERT INTO "actions" VALUES(1,62,1,'hold 1','','2026-12-01 13:59:08.359890');
INSERT INTO "actions" VALUES(1,63,1,'roll','25','2026-12-01 13:59:08.360120');
INSERT INTO "actions" VALUES(1,64,1,'score chance','','2026-12-01 13:59:08.360415');
INSERT INTO "actions" VALUES(1,65,0,'roll','32632','2026-12-01 13:59:08.360592');
INSERT INTO "actions" VALUES(1,66,0,'roll','46221','2026-12-01 13:59:08.360817');
INSERT INTO "actions" VALUES(1,67,0,'score four_of_a_kind','','2026-12-01 13:59:08.361070');
INSERT INTO "actions" VALUES(1,68,1,'roll','26561','2026-12-01 13:59:08.361248');
INSERT INTO "actions" VALUES(1,69,1,'hold 2 4','','2026-12-01 13:59:08.361465');
INSERT INTO "actions" VALUES(1,70,1,'roll','363','2026-12-01 13:59:08.361697');
INSERT INTO "actions" VALUES(1,71,1,'hold 3','','2026-12-01 13:59:08.361910');
INSERT INTO "actions" VALUES(1,72,1,'roll','34','2026-12-01 13:59:08.362131');
INSERT INTO "actions" VALUES(1,73,1,'score three_of_a_kind','','2026-12-01 13:59:08.362466');
INSERT INTO "actions" VALUES(1,74,0,'roll','63665','2026-12-01 13:59:08.362650');
INSERT INTO "actions" VALUES(1,75,0,'roll','54412','2026-12-01 13:59:08.362865');
INSERT INTO "actions" VALUES(1,76,0,'score full_house','','2026-12-01 13:59:08.363122');
INSERT INTO "actions" VALUES(1,77,1,'roll','14264','2026-12-01 13:59:08.363325');
INSERT INTO "actions" VALUES(1,78,1,'hold 2 5','','2026-12-01 13:59:08.363559');
INSERT INTO "actions" VALUES(1,79,1,'roll','651','2026-12-01 13:59:08.363789');
INSERT INTO "actions" VALUES(1,80,1,'hold 4','','2026-12-01 13:59:08.364187');
INSERT INTO "actions" VALUES(1,81,1,'roll','54','2026-12-01 13:59:08.364434');
INSERT INTO "actions" VALUES(1,82,1,'score fours','','2026-12-01 13:59:08.364710');
INSERT INTO "actions" VALUES(1,83,0,'roll','63566','2026-12-01 13:59:08.364888');
INSERT INTO "actions" VALUES(1,84,0,'roll','21225','2026-12-01 13:59:08.365098');
INSERT INTO "actions" VALUES(1,85,0,'score small_straight','','2026-12-01 13:59:08.365333');
INSERT INTO "actions" VALUES(1,86,1,'roll','24564','2026-12-01 13:59:08.365506');
INSERT INTO "actions" VALUES(1,87,1,'hold 3','','2026-12-01 13:59:08.365719');
INSERT INTO "actions" VALUES(1,88,1,'roll','6345','2026-12-01 13:59:08.365966');
INSERT INTO "actions" VALUES(1,89,1,'hold 5','','2026-12-01 13:59:08.366182');
INSERT INTO "actions" VALUES(1,90,1,'roll','534','2026-12-01 13:59:08.366456');
INSERT INTO "actions" VALUES(1,91,1,'score fives','','2026-12-01 13:59:08.366724');
INSERT INTO "actions" VALUES(1,92,0,'roll','25426','2026-12-01 13:59:08.366898');
INSERT INTO "actions" VALUES(1,93,0,'roll','36525','2026-12-01 13:59:08.367101');
INSERT INTO "actions" VALUES(1,94,0,'score large_straight','','2026-12-01 13:59:08.367325');
INSERT INTO "actions" VALUES(1,95,1,'roll','66112','2026-12-01 13:59:08.367498');
INSERT INTO "actions" VALUES(1,96,1,'hold 1 2 3','','2026-12-01 13:59:08.367714');
INSERT INTO "actions" VALUES(1,97,1,'roll','52','2026-12-01 13:59:08.367935');
INSERT INTO "actions" VALUES(1,98,1,'roll','64','2026-12-01 13:59:08.368156');
INSERT INTO "actions" VALUES(1,99,1,'score sixes','','2026-12-01 13:59:08.368486');
INSERT INTO "actions" VALUES(1,100,0,'roll','51213','2026-12-01 13:59:08.368678');
INSERT INTO "actions" VALUES(1,101,0,'roll','33342','2026-12-01 13:59:08.368884');
INSERT INTO "actions" VALUES(1,102,0,'score yahtzee','','2026-12-01 13:59:08.369098');
INSERT INTO "actions" VALUES(1,103,1,'roll','21332','2026-12-01 13:59:08.369276');
INSERT INTO "actions" VALUES(1,104,1,'hold 1 5','','2026-12-01 13:59:08.369493');
INSERT INTO "actions" VALUES(1,105,1,'roll','335','2026-12-01 13:59:08.369718');
INSERT INTO "actions" VALUES(1,106,1,'hold 2 3','','2026-12-01 13:59:08.369931');
INSERT INTO "actions" VALUES(1,107,1,'roll','5','2026-12-01 13:59:08.370158');
INSERT INTO "actions" VALUES(1,108,1,'score full_house','','2026-12-01 13:59:08.370458');
INSERT INTO "actions" VALUES(1,109,0,'roll','34535','2026-12-01 13:59:08.370634');
INSERT INTO "actions" VALUES(1,110,0,'roll','25334','2026-12-01 13:59:08.370828');
INSERT INTO "actions" VALUES(1,111,0,'score chance','','2026-12-01 13:59:08.371035');
INSERT INTO "actions" VALUES(1,112,1,'roll','51455','2026-12-01 13:59:08.371216');
INSERT INTO "actions" VALUES(1,113,1,'hold 1 4 5','','2026-12-01 13:59:08.371436');
INSERT INTO "actions" VALUES(1,114,1,'roll','22','2026-12-01 13:59:08.371668');
INSERT INTO "actions" VALUES(1,115,1,'roll','53','2026-12-01 13:59:08.371976');
INSERT INTO "actions" VALUES(1,116,1,'score large_straight','','2026-12-01 13:59:08.372236');
INSERT INTO "actions" VALUES(2,1,0,'roll','33414','2026-12-01 13:59:08.376221');
INSERT INTO "actions" VALUES(2,2,0,'roll','43466','2026-12-01 13:59:08.376538');
INSERT INTO "actions" VALUES(2,3,0,'score ones','','2026-12-01 13:59:08.376873');
INSERT INTO "actions" VALUES(2,4,1,'roll','45135','2026-12-01 13:59:08.377055');
INSERT INTO "actions" VALUES(2,5,1,'roll','24222','2026-12-01 13:59:08.377303');
INSERT INTO "actions" VALUES(2,6,1,'score ones','','2026-12-01 13:59:08.377615');
INSERT INTO "actions" VALUES(2,7,0,'roll','11456','2026-12-01 13:59:08.377789');
INSERT INTO "actions" VALUES(2,8,0,'roll','46462','2026-12-01 13:59:08.378035');
INSERT INTO "actions" VALUES(2,9,0,'score twos','','2026-12-01 13:59:08.378440');
INSERT INTO "actions" VALUES(3,1,0,'roll','26656','2026-12-01 13:59:08.380872');
INSERT INTO "actions" VALUES(3,2,0,'hold 1','','2026-12-01 13:59:08.381091');
INSERT INTO "actions" VALUES(3,3,0,'undo','','2026-12-01 13:59:08.381915');
INSERT INTO "actions" VALUES(3,4,0,'roll','31634','2026-12-01 13:59:08.382902');
INSERT INTO "actions" VALUES(3,5,0,'score ones','','2026-12-01 13:59:08.383283');
INSERT INTO "actions" VALUES(3,6,0,'roll','35365','2026-12-01 13:59:08.383465');
INSERT INTO "actions" VALUES(3,7,0,'roll','62363','2026-12-01 13:59:08.383753');
INSERT INTO "actions" VALUES(3,8,0,'score twos','','2026-12-01 13:59:08.384089');
INSERT INTO "actions" VALUES(3,9,0,'roll','52251','2026-12-01 13:59:08.384270');
INSERT INTO "actions" VALUES(3,10,0,'roll','13166','2026-12-01 13:59:08.384515');
INSERT INTO "actions" VALUES(3,11,0,'score threes','','2026-12-01 13:59:08.384831');
INSERT INTO "actions" VALUES(3,12,0,'roll','22511','2026-12-01 13:59:08.385002');
INSERT INTO "actions" VALUES(3,13,0,'roll','15212','2026-12-01 13:59:08.385244');
INSERT INTO "actions" VALUES(3,14,0,'score fours','','2026-12-01 13:59:08.385570');
INSERT INTO "actions" VALUES(3,15,0,'roll','16656','2026-12-01 13:59:08.385735');
INSERT INTO "actions" VALUES(3,16,0,'roll','12531','2026-12-01 13:59:08.385971');
INSERT INTO "actions" VALUES(3,17,0,'score fives','','2026-12-01 13:59:08.386307');
INSERT INTO "actions" VALUES(3,18,0,'roll','11463','2026-12-01 13:59:08.386486');
INSERT INTO "actions" VALUES(3,19,0,'roll','35235','2026-12-01 13:59:08.386720');
INSERT INTO "actions" VALUES(3,20,0,'score sixes','','2026-12-01 13:59:08.387010');
INSERT INTO "actions" VALUES(3,21,0,'roll','43462','2026-12-01 13:59:08.387177');
INSERT INTO "actions" VALUES(3,22,0,'roll','55231','2026-12-01 13:59:08.387404');
INSERT INTO "actions" VALUES(3,23,0,'score one_pair','','2026-12-01 13:59:08.387689');
INSERT INTO "actions" VALUES(3,24,0,'roll','16531','2026-12-01 13:59:08.387852');
INSERT INTO "actions" VALUES(3,25,0,'roll','53352','2026-12-01 13:59:08.388078');
INSERT INTO "actions" VALUES(3,26,0,'score two_pairs','','2026-12-01 13:59:08.388407');
INSERT INTO "actions" VALUES(3,27,0,'roll','42313','2026-12-01 13:59:08.388673');
INSERT INTO "actions" VALUES(3,28,0,'roll','61156','2026-12-01 13:59:08.388897');
INSERT INTO "actions" VALUES(3,29,0,'score three_of_a_kind','','2026-12-01 13:59:08.389178');
INSERT INTO "actions" VALUES(3,30,0,'roll','14616','2026-12-01 13:59:08.389349');
INSERT INTO "actions" VALUES(4,1,0,'dice 3 3 3 5 5','','2026-12-01 13:59:08.390805');
INSERT INTO "actions" VALUES(4,2,0,'score full_house','','2026-12-01 13:59:08.391092');
INSERT INTO "actions" VALUES(4,3,1,'score chance 21','','2026-12-01 13:59:08.405709');
INSERT INTO "actions" VALUES(5,1,0,'roll','54454','2026-12-01 13:59:08.417003');
INSERT INTO "actions" VALUES(5,2,0,'roll','43266','2026-12-01 13:59:08.417397');
INSERT INTO "actions" VALUES(5,3,0,'score ones','','2026-12-01 13:59:08.417767');
INSERT INTO "actions" VALUES(5,4,1,'roll','45646','2026-12-01 13:59:08.417967');
INSERT INTO "actions" VALUES(5,5,1,'roll','36446','2026-12-01 13:59:08.418327');
INSERT INTO "actions" VALUES(5,6,1,'score ones','','2026-12-01 13:59:08.418684');
INSERT INTO "actions" VALUES(5,7,2,'roll','54631','2026-12-01 13:59:08.418946');
INSERT INTO "actions" VALUES(5,8,2,'hold 3','','2026-12-01 13:59:08.419314');
INSERT INTO "actions" VALUES(5,9,2,'roll','2445','2026-12-01 13:59:08.419600');
INSERT INTO "actions" VALUES(5,10,2,'hold 2 5','','2026-12-01 13:59:08.419846');
INSERT INTO "actions" VALUES(5,11,2,'roll','12','2026-12-01 13:59:08.420087');
INSERT INTO "actions" VALUES(5,12,2,'score chance','','2026-12-01 13:59:08.420462');
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0003_roomseeds');
CREATE TABLE game_seats (
	game_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	cpu_level VARCHAR(20), 
	profile_id INTEGER, 
	PRIMARY KEY (game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(profile_id) REFERENCES profiles (id)
);
INSERT INTO "game_seats" VALUES(1,0,'Ann',NULL,1);
INSERT INTO "game_seats" VALUES(1,1,'CPU 1','casual',NULL);
INSERT INTO "game_seats" VALUES(2,0,'Bob',NULL,2);
INSERT INTO "game_seats" VALUES(2,1,'Cee',NULL,3);
INSERT INTO "game_seats" VALUES(3,0,'Ann',NULL,1);
INSERT INTO "game_seats" VALUES(4,0,'Ann',NULL,1);
INSERT INTO "game_seats" VALUES(4,1,'Dee',NULL,4);
INSERT INTO "game_seats" VALUES(5,0,'Ann',NULL,1);
INSERT INTO "game_seats" VALUES(5,1,'Bobby',NULL,5);
INSERT INTO "game_seats" VALUES(5,2,'Eve','casual',NULL);
CREATE TABLE game_sessions (
	game_id INTEGER NOT NULL, 
	session_json TEXT NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE games (
	id INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	rules_json TEXT NOT NULL, 
	rules_key VARCHAR(40) NOT NULL, 
	first_player VARCHAR(20) NOT NULL, 
	match_length INTEGER NOT NULL, 
	seed BIGINT NOT NULL, 
	practice BOOLEAN NOT NULL, 
	seat_count INTEGER NOT NULL, 
	opening_dice VARCHAR(2000) NOT NULL, 
	version INTEGER NOT NULL, 
	totals_json TEXT NOT NULL, kind VARCHAR(8) DEFAULT 'play' NOT NULL, dice_scheme VARCHAR(20) DEFAULT 'python-random-v0' NOT NULL, server_seed VARCHAR(64), dice_commitment VARCHAR(64), client_seeds_json TEXT, 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES(1,'2026-12-01 13:59:07.935271','2026-12-01 13:59:08.372236','finished','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,1479871258647658461,0,2,'',116,'[43, 254]','play','hmac-sha256-v1','3cbd443ccc27d2f0afd91100d02ae236b86482a256cd110ec1c5d754b6abe4c5','3893f02b3666a90820069e989faa278be8e6aa9b4269b71a175b5db105d662e8','["ann-seed", ""]');
INSERT INTO "games" VALUES(2,'2026-12-01 13:59:08.373786','2026-12-01 13:59:08.378440','in_progress','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,2923680585697589939,0,2,'',9,'[2, 0]','play','hmac-sha256-v1','9891b4fd06b2d3b6d1113dc409131e2143d4b1ba477aa34297a26a8da809add0','6839dc3b0f4b0334df2c442695be9a79d70b216b34ea64481782fbe70ec7fa92','["b", "c"]');
INSERT INTO "games" VALUES(3,'2026-12-01 13:59:08.379851','2026-12-01 13:59:08.389349','in_progress','{"column_multipliers": [1], "family": "yatzy", "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "none", "large_straight": 20, "of_a_kind_scores": "matching_dice", "rolls_per_turn": 3, "small_straight": 15, "straights": "fixed", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 50, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": false, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','yatzy','first_seat',1,7,1,1,'',30,'[37]','play','python-random-v0',NULL,NULL,NULL);
INSERT INTO "games" VALUES(4,'2026-12-01 13:59:08.389557','2026-12-01 13:59:08.405709','in_progress','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,2165352336267297918,0,2,'',3,'[25, 21]','table','python-random-v0',NULL,NULL,NULL);
INSERT INTO "games" VALUES(5,'2026-12-01 13:59:08.412185','2026-12-01 13:59:08.420462','in_progress','{"column_multipliers": [1], "five_of_a_kind_is_full_house": false, "full_house": 25, "joker": "forced", "large_straight": 40, "of_a_kind_scores": "all_dice", "rolls_per_turn": 3, "small_straight": 30, "straights": "runs", "upper_bonus": true, "upper_bonus_threshold": 63, "upper_bonus_value": 35, "upper_first": false, "yahtzee": 50, "yahtzee_bonus": true, "yahtzee_bonus_condition": "box_scored", "yahtzee_bonus_value": 100}','classic','first_seat',1,2189529583725393057,0,3,'',12,'[0, 0, 18]','play','hmac-sha256-v1','d02d76a44aec418581bdcf087e319493be2d36a99d7327c33def7cf7b816a625','d896313f1091bf702c3b8ebadb402d9c69173b1fbbe8c6f37d843e26b1253778','["", "bob''s own", ""]');
CREATE TABLE profiles (
	id INTEGER NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	name_key VARCHAR(40) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_key)
);
INSERT INTO "profiles" VALUES(1,'Ann','ann','2026-12-01 13:59:07.935271');
INSERT INTO "profiles" VALUES(2,'Bob','bob','2026-12-01 13:59:08.373786');
INSERT INTO "profiles" VALUES(3,'Cee','cee','2026-12-01 13:59:08.373786');
INSERT INTO "profiles" VALUES(4,'Dee','dee','2026-12-01 13:59:08.389557');
INSERT INTO "profiles" VALUES(5,'Bobby','bobby','2026-12-01 13:59:08.412185');
CREATE TABLE results (
	game_id INTEGER NOT NULL, 
	game_number INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	profile_id INTEGER, 
	total INTEGER NOT NULL, 
	rank INTEGER NOT NULL, 
	upper_bonuses INTEGER NOT NULL, 
	yahtzees INTEGER NOT NULL, 
	boxes_json TEXT NOT NULL, 
	finished_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, game_number, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(profile_id) REFERENCES profiles (id)
);
INSERT INTO "results" VALUES(1,1,0,1,43,2,0,0,'{"ones": [2], "twos": [2], "threes": [6], "fours": [0], "fives": [10], "sixes": [6], "three_of_a_kind": [0], "four_of_a_kind": [0], "full_house": [0], "small_straight": [0], "large_straight": [0], "yahtzee": [0], "chance": [17]}','2026-12-01 13:59:08.372236');
INSERT INTO "results" VALUES(1,1,1,NULL,254,1,1,1,'{"ones": [4], "twos": [2], "threes": [12], "fours": [12], "fives": [15], "sixes": [18], "three_of_a_kind": [25], "four_of_a_kind": [27], "full_house": [0], "small_straight": [30], "large_straight": [0], "yahtzee": [50], "chance": [24]}','2026-12-01 13:59:08.372236');
CREATE TABLE room_claims (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	session_key VARCHAR(64) NOT NULL, 
	PRIMARY KEY (room_id, seat, session_key), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "room_claims" VALUES(1,1,'2216e36d4855b36471477a2a1a33eb3c8d943fe4175ecbcae44886ffac5b0128');
CREATE TABLE room_seats (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	level VARCHAR(20), 
	joined BOOLEAN NOT NULL, 
	game_seat INTEGER, client_seed VARCHAR(256), 
	PRIMARY KEY (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "room_seats" VALUES(1,0,'me','Ann',NULL,1,0,NULL);
INSERT INTO "room_seats" VALUES(1,1,'friend','Bobby',NULL,1,1,'bob''s own');
INSERT INTO "room_seats" VALUES(1,2,'cpu','Eve','casual',1,2,NULL);
INSERT INTO "room_seats" VALUES(2,0,'me','Zed',NULL,1,NULL,NULL);
INSERT INTO "room_seats" VALUES(2,1,'friend','Yan',NULL,0,NULL,NULL);
CREATE TABLE rooms (
	id INTEGER NOT NULL, 
	code VARCHAR(6) NOT NULL, 
	host_key VARCHAR(64) NOT NULL, 
	status VARCHAR(8) NOT NULL, 
	options_json TEXT NOT NULL, 
	version INTEGER NOT NULL, 
	game_id INTEGER, 
	created_at DATETIME NOT NULL, server_seed VARCHAR(64), 
	PRIMARY KEY (id), 
	UNIQUE (code), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "rooms" VALUES(1,'PPZ3BE','cf2290b866b26dc3c73031c167dbac5db92afcc00c4333a4c9e1ab3e3edfd129','started','{}',2,5,'2026-12-01 13:59:08.406529','d02d76a44aec418581bdcf087e319493be2d36a99d7327c33def7cf7b816a625');
INSERT INTO "rooms" VALUES(2,'Y2MPVC','ffbb8465c9133e848a67c1c9585412fc18030e1ede64e9e2639b8d9733e0bc8e','waiting','{}',0,NULL,'2026-12-01 13:59:08.420752','b4a4dc9f6e46810d5240eec43a3bd9d1bf512ec6188086ef2a254926664ae809');
CREATE TABLE tutorial_progress (
	owner VARCHAR(64) NOT NULL, 
	lesson VARCHAR(40) NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	times_done INTEGER NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (owner, lesson)
);
INSERT INTO "tutorial_progress" VALUES('','rolling','done',1,'2026-12-01 13:59:08.421422');
INSERT INTO "tutorial_progress" VALUES('','scoring','skipped',0,'2026-12-01 13:59:08.426677');
CREATE TABLE web_seats (
	session_key VARCHAR(64) NOT NULL, 
	game_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (session_key, game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "web_seats" VALUES('2216e36d4855b36471477a2a1a33eb3c8d943fe4175ecbcae44886ffac5b0128',5,1,'2026-12-01 13:59:08.415126');
INSERT INTO "web_seats" VALUES('cf2290b866b26dc3c73031c167dbac5db92afcc00c4333a4c9e1ab3e3edfd129',5,0,'2026-12-01 13:59:08.415840');
CREATE INDEX ix_games_status ON games (status);
CREATE INDEX ix_results_profile ON results (profile_id);
CREATE INDEX ix_web_seats_game ON web_seats (game_id);
CREATE INDEX ix_rooms_game ON rooms (game_id);
COMMIT;
